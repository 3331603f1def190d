import Foundation
import Testing
@testable import VellumStore

/// Contexts, the write queue and saves over a store in a PostgreSQL schema of the
/// throwaway cluster; the schema's rows are checked with a plain libpq connection.
@Suite struct PostgreSQLStoreTests {
    /// A new schema in a new database: a store is created there on first open.
    static func newStoreURL() throws -> URL {
        try #require(URL(string: try PostgreSQLCluster.shared().makeSchema("shop")))
    }

    static func open(_ url: URL, model: ManagedObjectModel? = nil) throws -> PersistentStore {
        try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: model ?? Fixtures.shopModel())
    }

    /// The rows of `sql` in the store's schema, each as its text columns joined by `|` (NULL: empty).
    static func psql(_ url: URL, _ sql: String) throws -> [String] {
        try PGConnection(url: url.absoluteString).rows(sql, format: .text).map { row in
            row.map { $0.stringValue ?? "" }.joined(separator: "|")
        }
    }

    @Test func aStoreIsCreatedInTheSchemaAndSavesTypedRows() throws {
        let url = try Self.newStoreURL()
        let store = try Self.open(url)
        try SecondLayoutTests.seed(store)
        #expect(try Self.psql(url, #"SELECT "name", "price"::text, "_version"::text FROM "Product" ORDER BY "name""#) == ["Anvil|10|1", "Rope|2|1", "Élan|5|1"])
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM "Product_tags""#) == ["3"])
        #expect(try Self.psql(url, #"SELECT "title", "done"::text FROM "Item" ORDER BY "title""#) == ["do|true", "say|"])
        #expect(try Self.psql(url, #"SELECT value FROM _vellum_metadata WHERE key = 'modelHash'"#) == [try Fixtures.shopModel().versionHash])
    }

    @Test func fetchesWithPredicatesSortsAndCounts() throws {
        let url = try Self.newStoreURL()
        try SecondLayoutTests.seed(try Self.open(url))
        let c = try ManagedObjectContext(store: try Self.open(url))
        try SecondLayoutTests.expectSeededFetches(c)
        let byPrice = [QuerySortDescriptor("price")]
        let ids = try c.fetchObjectIDs(FetchRequest(entityName: "Product", sortDescriptors: byPrice))
        let fresh = try ManagedObjectContext(store: try Self.open(url))
        #expect(try SecondLayoutTests.names(ids.map { try fresh.existingObject(with: $0) }) == ["Rope", "Élan", "Anvil"])
    }

    /// The browser's first list failed with "subquery in FROM must have an alias" (42601).
    @Test func aCountWithALimitNeedsNoSubqueryAlias() throws {
        let url = try Self.newStoreURL()
        try SecondLayoutTests.seed(try Self.open(url))
        let c = try ManagedObjectContext(store: try Self.open(url))
        #expect(try c.count(FetchRequest(entityName: "Product", fetchLimit: 2)) == 2)
        #expect(try c.count(FetchRequest(entityName: "Product", fetchOffset: 1)) == 2)
    }

    @Test func relationshipsReadBackInOrder() throws {
        let url = try Self.newStoreURL()
        try SecondLayoutTests.seed(try Self.open(url))
        try SecondLayoutTests.expectSeededRelationships(try ManagedObjectContext(store: try Self.open(url)))
    }

    @Test func deleteRulesApply() throws {
        let url = try Self.newStoreURL()
        let store = try Self.open(url)
        try SecondLayoutTests.seed(store)
        try SecondLayoutTests.deleteSeededProviderThenAnvil(try ManagedObjectContext(store: store))
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM "Image""#) == ["0"])
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM "Product_tags""#) == ["2"])
    }

    @Test func optimisticLockingSeesAnotherStoresSave() throws {
        let url = try Self.newStoreURL()
        try SecondLayoutTests.seed(try Self.open(url))
        let mine = try ManagedObjectContext(store: try Self.open(url))
        let theirs = try ManagedObjectContext(store: try Self.open(url))
        try SecondLayoutTests.expectRopeVersionConflict(mine: mine, theirs: theirs)
        #expect(try Self.psql(url, #"SELECT "price"::text, "_version"::text FROM "Product" WHERE "name" = 'Rope'"#) == ["7|2"])
    }

    @Test func aUniquenessViolationIsTheSameConflictAsOnSQLite() throws {
        let url = try Self.newStoreURL()
        try SecondLayoutTests.seed(try Self.open(url))
        let c = try ManagedObjectContext(store: try Self.open(url))
        _ = try c.insert("Provider", values: ["name": .string("Acme")])
        var failure: StoreError?
        do { try c.save() } catch { failure = error as? StoreError }
        guard case .conflicts(let cs)? = failure, case .uniqueness(let attributes, _)? = cs.first?.kind else {
            Issue.record("expected a uniqueness conflict, got \(String(describing: failure))"); return
        }
        #expect(attributes == ["name"])
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM "Provider""#) == ["1"])
    }

    @Test func aDifferentModelIsRefusedAsForAFile() throws {
        let url = try Self.newStoreURL()
        _ = try Self.open(url)
        let other = try ModelBuilder().entity("Provider") { $0.attribute("name", .string) }.build()
        #expect {
            _ = try Self.open(url, model: other)
        } throws: { error in
            if case .modelMismatch = error as? StoreError { return true }
            return false
        }
        let stored = try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: nil)
        #expect(stored.model.versionHash == (try Fixtures.shopModel()).versionHash)
    }

    @Test func aSchemaWithoutAStoreIsNotCreatedWithoutCreateIfMissing() throws {
        let url = try Self.newStoreURL()
        #expect(throws: StoreError.self) {
            _ = try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: try Fixtures.shopModel(), options: StoreOptions(createIfMissing: false))
        }
        #expect(try Self.psql(url, "SELECT count(*)::text FROM pg_tables WHERE schemaname = 'shop'") == ["0"])
    }

    @MainActor @Test func theWriteQueueSavesAndTheViewContextReads() async throws {
        let url = try Self.newStoreURL()
        let container = try PersistentContainer(model: try Fixtures.shopModel(), storeURL: url)
        #expect(container.store.remoteEngine != nil)
        for i in 0..<20 {
            try await container.enqueue { ctx in _ = try ctx.insert("Tag", values: ["name": .string("t\(i)")]) }
        }
        let id = try await container.enqueue { ctx in
            let p = try ctx.insert("Product", values: ["name": .string("Box"), "added": .date(Date(timeIntervalSince1970: 86_400))])
            try p.setToMany("tags", try ctx.fetch("Tag", where: QueryPredicate(format: "name IN {'t1', 't2'}")))
            return p.objectID
        }
        let view = container.viewContext
        #expect(try view.count(FetchRequest(entityName: "Tag")) == 20)
        let box = try #require(try view.fetch("Product").first)
        #expect(try box["added"] == .date(Date(timeIntervalSince1970: 86_400)))
        #expect(try SecondLayoutTests.names(try box.toMany("tags")).sorted() == ["t1", "t2"])
        let permanent = try #require(container.store.permanentID(for: id))
        #expect(box.objectID == permanent)
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM "Tag""#) == ["20"])
    }
}
