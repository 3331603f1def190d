import Foundation
import Testing
import VellumStore
import VellumTestSupport

/// Setting a value on a pending insert stores it directly when nobody listens (the
/// bulk-insert path); these pin what must still happen around that shortcut.
@Suite("Pending insert values")
struct PendingInsertValueTests {
    @Test func aWrongTypeIsRefusedAndTheValueKept() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let product = try ctx.insert("Product", values: ["name": .string("Lamp")])
        let price = try #require(product.entity.attributeIndexByName["price"])
        #expect(throws: StoreError.self) { try product.setValue(.string("cheap"), at: price) }
        #expect(try product.value(forKey: "price") == .double(0))
        try product.setValue(.integer(3), at: price)
        #expect(try product.value(forKey: "price") == .double(3), "an integer widens to the double attribute")
    }

    @Test func observersAddedAfterTheInsertHearEachValue() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let product = try ctx.insert("Product", values: ["name": .string("Lamp")])
        var heard: [Set<ObjectID>] = []
        let token = ctx.observeChanges { heard.append($0.inserted) }
        try product.setValue(.string("Desk lamp"), forKey: "name")
        #expect(heard == [[product.objectID]])
        ctx.removeObserver(token)
        try product.setValue(.string("Floor lamp"), forKey: "name")
        #expect(heard.count == 1, "a removed observer hears nothing")
        #expect(try product.value(forKey: "name") == .string("Floor lamp"))
    }

    @Test func anUndoStackAttachedAfterTheInsertRecordsTheChange() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let product = try ctx.insert("Product", values: ["name": .string("Lamp")])
        let stack = UndoStack()
        ctx.undoStack = stack
        try product.setValue(.double(12.5), forKey: "price")
        #expect(stack.canUndo)
        _ = try stack.undo(in: ctx)
        #expect(try product.value(forKey: "price") == .double(0))
        ctx.undoStack = nil
        try product.setValue(.double(7), forKey: "price")
        #expect(try product.value(forKey: "price") == .double(7))
    }

    @Test func aPendingInsertWhoseContextIsGoneCannotBeChanged() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        var ctx: ManagedObjectContext? = try ManagedObjectContext(store: store)
        let product = try ctx!.insert("Product", values: ["name": .string("Lamp")])
        ctx = nil
        #expect(throws: StoreError.self) { try product.setValue(.string("Desk lamp"), forKey: "name") }
    }
}
