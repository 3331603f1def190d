import Foundation
import Testing
@testable import VellumStore

/// Issue 16: `values: ["name": "Tea", "price": 3.5]` did not compile (no literals) and
/// `product["name"] = …` was get-only. Writes through the subscript do not throw; one
/// that cannot apply is thrown by the next save, as Core Data validates at save.
@Suite struct ValueLiteralAndKeyedWriteTests {
    @Test func valuesAreWrittenAsLiterals() {
        let values: [String: Value] = ["name": "Tea", "stock": 12, "price": 3.5, "active": false, "sku": nil]
        #expect(values["name"] == .string("Tea"))
        #expect(values["stock"] == .integer(12))
        #expect(values["price"] == .double(3.5))
        #expect(values["active"] == .bool(false))
        #expect(values["sku"] == .null)
        let n = 7
        #expect(("item \(n)" as Value) == .string("item 7"))
    }

    @Test func anInsertTakesLiteralValuesAndTheSubscriptWritesWithoutTry() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let tea = try ctx.insert("Product", values: ["name": "Tea", "price": 3.5, "stock": 4])
        tea["price"] = 4   // an integer literal widens to the double attribute
        tea["sku"] = "TEA-1"
        try ctx.save()
        let again = try ManagedObjectContext(store: ctx.store)
        let read = try #require(try again.fetch("Product").first)
        #expect(try read["price"] == .double(4))
        #expect(try read["sku"] == .string("TEA-1"))
        #expect(try read["stock"] == .integer(4))
    }

    @Test func aWriteThatCannotApplyIsThrownBySaveAndChangesNothing() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let tea = try ctx.insert("Product", values: ["name": "Tea"])
        try ctx.save()
        tea["colour"] = "green"             // no such attribute
        tea["price"] = "cheap"              // wrong type
        #expect(ctx.hasChanges, "a rejected write is pending until save reports it")
        let error = #expect(throws: StoreError.self) { try ctx.save() }
        #expect(error?.description.contains("colour") == true, "\(String(describing: error))")
        #expect(try tea["price"] == .double(0))
        #expect(!ctx.hasChanges)
    }

    /// A read through the settable subscript that fails gave `.null` and nothing else,
    /// indistinguishable from a null value; the next save now throws the reason.
    @Test func aReadThatFailsThroughTheSettableSubscriptIsThrownBySave() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let tea = try ctx.insert("Product", values: ["name": "Tea"])
        try ctx.save()
        let key: AttributeKey = "colour"    // no such attribute
        #expect(tea[key] == .null)
        let error = #expect(throws: StoreError.self) { try ctx.save() }
        #expect(error?.description.contains("colour") == true, "\(String(describing: error))")
        // A read that works leaves nothing behind.
        #expect(tea["name" as AttributeKey] == .string("Tea"))
        #expect(!ctx.hasChanges)
    }

    @Test func aRejectedWriteInAWriteQueueBlockFailsTheBlock() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("q.sqlite"))
        await #expect(throws: StoreError.self) {
            try await container.enqueue { ctx in
                let tea = try ctx.insert("Product", values: ["name": "Tea"])
                tea["price"] = "cheap"
            }
        }
        let count = try await container.enqueue { ctx in try ctx.count(FetchRequest(entityName: "Product")) }
        #expect(count == 0, "the block's insert must not be saved")
    }
}
