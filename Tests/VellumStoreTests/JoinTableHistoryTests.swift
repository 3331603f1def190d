import Foundation
import Testing
@testable import VellumStore

/// Issue #11, high item 12: many-to-many changes made outside Vellum (another
/// program's insert or delete in the join table: the `sqlite3` shell, or a plain
/// PostgreSQL connection like `psql`) reach the view context, live lists that
/// depend on the relationship, and to-many counts. On both engines (`StoreEngine`).
@MainActor
@Suite(.serialized) struct JoinTableHistoryTests {
    /// Another program's SQL tagging product `pk` with tag `tk`.
    static func tagging(_ pk: Int64, _ tk: Int64) -> String {
        #"INSERT INTO "Product_tags" ("source", "target") VALUES ("# + "\(pk), \(tk))"
    }

    @Test(arguments: StoreEngine.allCases) func joinTableWritesFromOtherProgramsReachTheViewAndLiveLists(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let opened = try engine.open(Fixtures.shopModel(), in: dir)
        let container = try PersistentContainer(store: opened.store)
        let (productID, tagID) = try await container.enqueue { ctx in
            let p = try ctx.insert("Product", values: ["name": .string("Tea")])
            let q = try ctx.insert("Product", values: ["name": .string("Coffee")])
            let t = try ctx.insert("Tag", values: ["name": .string("hot")])
            try q.add(t, to: "tags")
            return (p.objectID, t.objectID)
        }
        let view = container.viewContext
        let product = try view.existingObject(with: try #require(container.store.permanentID(for: productID)))
        let tag = try view.existingObject(with: try #require(container.store.permanentID(for: tagID)))
        #expect(try product.toMany("tags").count == 0)
        #expect(try tag.toMany("products").count == 1)
        var events: [ObjectsDidChange] = []
        view.observeChanges { events.append($0) }
        // Products with at least one tag.
        let tagged = ResultsController(fetchRequest: FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "tags.@count > 0"),
                                                                  sortDescriptors: [VellumStore.QuerySortDescriptor("name")]),
                                       context: view)
        try tagged.performFetch()
        #expect(tagged.fetchedObjectCount == 1)
        let pk = try #require(product.objectID.primaryKey), tk = try #require(tag.objectID.primaryKey)

        try opened.outside(Self.tagging(pk, tk))
        #expect(await waitUntil(timeout: 60) { tagged.fetchedObjectCount == 2 }, "the live list admits the newly tagged product")
        #expect(events.contains { $0.updated.contains(product.objectID) && $0.changedKeys[product.objectID] == ["tags"] })
        #expect(events.contains { $0.updated.contains(tag.objectID) && $0.changedKeys[tag.objectID] == ["products"] })
        #expect(try product.toMany("tags").map(\.objectID) == [tag.objectID])
        #expect(try tag.toMany("products").count == 2)

        events = []
        try opened.outside(#"DELETE FROM "Product_tags" WHERE "source" = "# + String(pk))
        #expect(await waitUntil(timeout: 60) { tagged.fetchedObjectCount == 1 }, "the live list drops the untagged product")
        #expect(events.contains { $0.updated.contains(product.objectID) })
        #expect(events.contains { $0.updated.contains(tag.objectID) })
        #expect(try product.toMany("tags").isEmpty)
        #expect(try tag.toMany("products").count == 1)
    }

    @Test(arguments: StoreEngine.allCases) func joinTableChangesAreRecordedForBothSides(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let opened = try engine.open(Fixtures.shopModel(), in: dir)
        let store = opened.store
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea")])
        let t = try ctx.insert("Tag", values: ["name": .string("hot")])
        try ctx.save()
        let start = try store.currentHistoryToken()
        let pk = try #require(p.objectID.primaryKey), tk = try #require(t.objectID.primaryKey)
        try opened.outside(Self.tagging(pk, tk))
        // A join row naming a missing object: the sqlite3 shell does not check foreign keys,
        // and only the side that exists is recorded; PostgreSQL refuses it (the foreign key,
        // checked at commit) and nothing is recorded.
        switch engine {
        case .sqlite: try opened.outside(Self.tagging(pk, 999))
        case .postgresql:
            #expect { try opened.outside(Self.tagging(pk, 999)) } throws: {
                if case StoreError.postgresql(let failure) = $0 { failure.sqlState == "23503" } else { false }
            }
        }
        let changes = try store.history(after: start).flatMap(\.changes)
        #expect(changes.map(\.objectID) == [p.objectID, t.objectID] + (engine == .sqlite ? [p.objectID] : []))
        #expect(changes.allSatisfy { $0.kind == .update })
        #expect(changes.map(\.changedKeys) == [["tags"], ["products"]] + (engine == .sqlite ? [["tags"]] : []))
    }
}
