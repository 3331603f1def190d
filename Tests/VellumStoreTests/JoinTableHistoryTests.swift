import Foundation
import Testing
@testable import VellumStore

/// Issue #11, high item 12: many-to-many changes made outside Vellum (a
/// `sqlite3` insert or delete in the join table) reach the view context,
/// live lists that depend on the relationship, and to-many counts.
@MainActor
@Suite(.serialized) struct JoinTableHistoryTests {
    @Test func joinTableWritesFromOtherProgramsReachTheViewAndLiveLists() async throws {
        let dir = TempDir()
        let url = dir.file("tags.sqlite")
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url)
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

        #expect(try sqliteShell(url.path, "INSERT INTO Product_tags (source, target) VALUES (\(pk), \(tk))") == 0)
        #expect(await waitUntil { tagged.fetchedObjectCount == 2 }, "the live list admits the newly tagged product")
        #expect(events.contains { $0.updated.contains(product.objectID) && $0.changedKeys[product.objectID] == ["tags"] })
        #expect(events.contains { $0.updated.contains(tag.objectID) && $0.changedKeys[tag.objectID] == ["products"] })
        #expect(try product.toMany("tags").map(\.objectID) == [tag.objectID])
        #expect(try tag.toMany("products").count == 2)

        events = []
        #expect(try sqliteShell(url.path, "DELETE FROM Product_tags WHERE source = \(pk)") == 0)
        #expect(await waitUntil { tagged.fetchedObjectCount == 1 }, "the live list drops the untagged product")
        #expect(events.contains { $0.updated.contains(product.objectID) })
        #expect(events.contains { $0.updated.contains(tag.objectID) })
        #expect(try product.toMany("tags").isEmpty)
        #expect(try tag.toMany("products").count == 1)
    }

    @Test func joinTableChangesAreRecordedForBothSides() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea")])
        let t = try ctx.insert("Tag", values: ["name": .string("hot")])
        try ctx.save()
        let start = try store.currentHistoryToken()
        let pk = try #require(p.objectID.primaryKey), tk = try #require(t.objectID.primaryKey)
        #expect(try sqliteShell(store.path, "INSERT INTO Product_tags (source, target) VALUES (\(pk), \(tk)); INSERT INTO Product_tags (source, target) VALUES (\(pk), 999)") == 0)
        let changes = try store.history(after: start).flatMap(\.changes)
        // A join row naming a missing object records only the side that exists.
        #expect(changes.map(\.objectID) == [p.objectID, t.objectID, p.objectID])
        #expect(changes.allSatisfy { $0.kind == .update })
        #expect(changes.map(\.changedKeys) == [["tags"], ["products"], ["tags"]])
    }
}
