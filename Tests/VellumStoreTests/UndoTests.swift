import Foundation
import Testing
@testable import VellumStore

@Suite struct UndoTests {
    @Test(arguments: StoreEngine.allCases) func undoAndRedoAnAddToAToMany(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        let coffee = try ctx.insert("Product", values: ["name": .string("Coffee")])
        try acme.add(tea, to: "products")
        try ctx.save()
        let undo = UndoStack()
        ctx.undoStack = undo
        undo.beginGroup("Add Coffee to Acme")
        try acme.add(coffee, to: "products")
        undo.endGroup()
        #expect(try acme.toMany("products") == [tea, coffee])
        #expect(try undo.undo(in: ctx) == "Add Coffee to Acme")
        #expect(try acme.toMany("products") == [tea])
        #expect(try coffee.toOne("provider") == nil)
        #expect(try undo.redo(in: ctx) == "Add Coffee to Acme")
        #expect(try acme.toMany("products") == [tea, coffee])
        #expect(try coffee.toOne("provider") === acme)
    }

    @Test(arguments: StoreEngine.allCases) func undoAndRedoAfterSave(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let undo = UndoStack()
        ctx.undoStack = undo
        undo.beginGroup("Add Tea")
        let tea = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        undo.endGroup()
        try ctx.save()
        undo.beginGroup("Edit price")
        try tea.setValue(.double(2), forKey: "price")
        undo.endGroup()
        try ctx.save()

        #expect(try undo.undo(in: ctx) == "Edit price")
        try ctx.save()
        #expect(try shop.read(#"SELECT "price" FROM "Product""#) == [[.double(1)]])
        #expect(try undo.redo(in: ctx) == "Edit price")
        try ctx.save()
        #expect(try shop.read(#"SELECT "price" FROM "Product""#) == [[.double(2)]])

        // Undo the insert (two steps back), then redo it: a new row with the same values.
        try undo.undo(in: ctx)
        try undo.undo(in: ctx)
        try ctx.save()
        #expect(try shop.count("Product") == 0)
        try undo.redo(in: ctx)
        try ctx.save()
        #expect(try shop.read(#"SELECT "name", "price" FROM "Product""#) == [[.string("Tea"), .double(1)]])
    }

    @Test(arguments: StoreEngine.allCases) func undoDeleteRestoresValues(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let tea = try ctx.insert("Product", values: ["name": .string("Tea"), "stock": .integer(7)])
        try ctx.save()
        let undo = UndoStack()
        ctx.undoStack = undo
        undo.beginGroup("Delete")
        try ctx.delete(tea)
        undo.endGroup()
        try ctx.save()
        try undo.undo(in: ctx)
        try ctx.save()
        let rows = try shop.read(#"SELECT "name", "stock" FROM "Product""#)
        #expect(rows == [[.string("Tea"), .integer(7)]])
        #expect(!undo.canUndo && undo.canRedo)
    }
}
