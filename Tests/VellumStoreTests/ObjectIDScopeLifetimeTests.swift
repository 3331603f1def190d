import Foundation
import Testing
@testable import VellumStore

/// Object IDs share one interned scope per (store, entity); tests and servers
/// open and close many stores in one process.
@Suite struct ObjectIDScopeLifetimeTests {
    /// Opens a private in-memory store, takes an ID from it, and closes it.
    private func openAndClose(_ model: ManagedObjectModel) throws {
        let store = try PersistentStore(url: nil, model: model, options: .inMemory)
        _ = store.objectID(entity: "Task", primaryKey: 1)
    }

    /// Issue #12: every store's scopes stayed in the intern table for the life of the process.
    @Test func openingAndClosingManyStoresKeepsTheScopeTableBounded() throws {
        let model = try Fixtures.shopModel()
        try openAndClose(model)
        let before = ObjectIDScope.internedCount
        let stores = 500
        for _ in 0..<stores { try openAndClose(model) }
        let growth = ObjectIDScope.internedCount - before
        // Leaked, the table would grow by one scope per entity per store (3,500 here);
        // other tests running meanwhile hold a few stores of their own.
        #expect(growth < 1_000, "the scope table grew by \(growth) after \(stores) stores were closed")
    }

    @Test func anIDOfAClosedStoreStillComparesHashesAndPrints() throws {
        let model = try Fixtures.shopModel()
        var held: [ObjectID] = []
        var storeIdentifier = ""
        do {
            let store = try PersistentStore(url: nil, model: model, options: .inMemory)
            storeIdentifier = store.identifier
            held = [store.objectID(entity: "Task", primaryKey: 7), store.objectID(entity: "Item", primaryKey: 7),
                    store.objectID(entity: "Product", primaryKey: 7)]
        }
        for _ in 0..<100 { try openAndClose(model) }
        #expect(held.map(\.uriString) == ["Task", "Item", "Product"].map { "vellum://\(storeIdentifier)/\($0)/p7" })
        #expect(held[0].rootName == "Item" && held[0].entityName == "Task" && held[0].storeIdentifier == storeIdentifier)
        // One row of one root table: the entity an ID names does not change its identity.
        #expect(held[0] == held[1])
        #expect(held[0] != held[2])
        let remade = ObjectID(entityName: "Task", rootName: "Item", key: .permanent(7), storeIdentifier: storeIdentifier)
        #expect(remade == held[0] && remade.hashValue == held[0].hashValue)
        #expect(Set(held + [remade]).count == 2)
        #expect(held.sorted().map(\.rootName) == ["Item", "Item", "Product"])
    }

    @Test func aReopenedStoreFindsObjectsByIDsTakenBeforeItClosed() throws {
        let dir = TempDir()
        let url = dir.file("reopen.sqlite")
        var id: ObjectID
        do {
            let store = try PersistentStore(url: url, model: Fixtures.shopModel())
            let ctx = try ManagedObjectContext(store: store)
            let task = try ctx.insert("Task", values: ["title": .string("kept")])
            try ctx.save()
            id = task.objectID
        }
        for _ in 0..<100 { try openAndClose(try Fixtures.shopModel()) }
        let store = try PersistentStore(url: url, model: Fixtures.shopModel())
        let ctx = try ManagedObjectContext(store: store)
        let byID = try ctx.existingObject(with: id)
        let fetched = try ctx.fetch(FetchRequest(entityName: "Task"))
        // Uniquing: the object found by the old ID is the one a fetch returns.
        #expect(fetched.count == 1 && fetched[0] === byID)
        #expect(byID.objectID == id)
        #expect(try byID.value(forKey: "title") == .string("kept"))
    }
}
