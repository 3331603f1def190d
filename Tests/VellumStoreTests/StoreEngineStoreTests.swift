import Foundation
import Testing
@testable import VellumStore

/// The store itself on a SQLite file and on a PostgreSQL schema (`StoreEngine`): rows as
/// another program reads them, fetches, relationships, delete rules, conflicts, opening
/// with another model or none, and the write queue. Seeded and checked with the
/// expectations `SecondLayoutTests` shares (its Core Data names are a third layout).
@Suite struct StoreEngineStoreTests {
    /// A new store of the shop model, seeded by `SecondLayoutTests.seed`.
    static func seeded(_ engine: StoreEngine, in dir: TempDir) throws -> StoreEngine.Opened {
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        try SecondLayoutTests.seed(shop.store)
        return shop
    }

    @Test(arguments: StoreEngine.allCases) func aStoreIsCreatedAndSavesTypedRowsAnotherProgramReads(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        #expect(try shop.text(#"SELECT "_pk", "_entity", "_version", "name", "price" FROM "Product" ORDER BY "name""#)
            == "1|Product|1|Anvil|10.0\n2|Product|1|Rope|2.0\n3|Product|1|Élan|5.0")
        #expect(try shop.count("Product_tags") == 3)
        // A real boolean on PostgreSQL (CASE WHEN refuses an integer there), 0 or 1 on SQLite.
        #expect(try shop.text(#"SELECT "title", CASE WHEN "done" THEN 'true' WHEN NOT "done" THEN 'false' END FROM "Item" ORDER BY "title""#) == "do|true\nsay|")
        #expect(try shop.text(#"SELECT "value" FROM "_vellum_metadata" WHERE "key" = 'modelHash'"#) == (try Fixtures.shopModel()).versionHash)
    }

    @Test(arguments: StoreEngine.allCases) func fetchesWithPredicatesSortsAndCounts(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        let c = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        try SecondLayoutTests.expectSeededFetches(c)
        let ids = try c.fetchObjectIDs(FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]))
        let fresh = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        #expect(try SecondLayoutTests.names(ids.map { try fresh.existingObject(with: $0) }) == ["Rope", "Élan", "Anvil"])
    }

    /// PostgreSQL's first count with a limit failed with "subquery in FROM must have an alias" (42601).
    @Test(arguments: StoreEngine.allCases) func aCountWithALimitOrOffsetCountsThoseRows(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        let c = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        #expect(try c.count(FetchRequest(entityName: "Product", fetchLimit: 2)) == 2)
        #expect(try c.count(FetchRequest(entityName: "Product", fetchOffset: 1)) == 2)
    }

    @Test(arguments: StoreEngine.allCases) func relationshipsReadBackInOrder(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        try SecondLayoutTests.expectSeededRelationships(try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel())))
    }

    @Test(arguments: StoreEngine.allCases) func deleteRulesApply(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        try SecondLayoutTests.deleteSeededProviderThenAnvil(try ManagedObjectContext(store: shop.store))
        #expect(try shop.count("Image") == 0)
        #expect(try shop.count("Product_tags") == 2)
    }

    @Test(arguments: StoreEngine.allCases) func optimisticLockingSeesAnotherStoresSave(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        let mine = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        let theirs = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        try SecondLayoutTests.expectRopeVersionConflict(mine: mine, theirs: theirs)
        #expect(try shop.text(#"SELECT "price", "_version" FROM "Product" WHERE "name" = 'Rope'"#) == "7.0|2")
    }

    @Test(arguments: StoreEngine.allCases) func aUniquenessViolationIsAConflictNamingItsAttributes(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try Self.seeded(engine, in: dir)
        let c = try ManagedObjectContext(store: try shop.reopen(Fixtures.shopModel()))
        _ = try c.insert("Provider", values: ["name": .string("Acme")])
        var failure: StoreError?
        do { try c.save() } catch { failure = error as? StoreError }
        guard case .conflicts(let cs)? = failure, case .uniqueness(let attributes, _)? = cs.first?.kind else {
            Issue.record("expected a uniqueness conflict, got \(String(describing: failure))"); return
        }
        #expect(attributes == ["name"])
        #expect(try shop.count("Provider") == 1)
    }

    @Test(arguments: StoreEngine.allCases) func aDifferentModelIsRefusedAndNoModelOpensTheStoredOne(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let other = try ModelBuilder().entity("Provider") { $0.attribute("name", .string) }.build()
        #expect { _ = try shop.reopen(other) } throws: { error in
            if case .modelMismatch = error as? StoreError { return true }
            return false
        }
        let stored = try shop.reopen(nil)
        #expect(stored.model == (try Fixtures.shopModel()))
        #expect(stored.identifier == shop.store.identifier)
    }

    @Test(arguments: StoreEngine.allCases) func aPlaceWithoutAStoreIsNotCreatedWithoutCreateIfMissing(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let place = try engine.location("missing", in: dir)
        for model in [nil, try Fixtures.shopModel()] {
            #expect { _ = try place.store(model, options: StoreOptions(createIfMissing: false)) } throws: { error in
                // Each engine's own words: no such file, or a schema that holds no store.
                switch (engine, error as? StoreError) {
                case (.sqlite, .fileNotFound?), (.postgresql, .invalidOperation?): return true
                default: return false
                }
            }
        }
        switch engine {
        case .sqlite: #expect(!FileManager.default.fileExists(atPath: place.url.path))
        case .postgresql: #expect(try place.text("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()") == "0")
        }
    }

    @MainActor @Test(arguments: StoreEngine.allCases) func theWriteQueueSavesAndTheViewContextReads(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let place = try engine.location("c", in: dir)
        let container = try PersistentContainer(model: try Fixtures.shopModel(), storeURL: place.url)
        #expect((container.store.remoteEngine != nil) == (engine == .postgresql))
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
        #expect(try place.count("Tag") == 20)
    }
}
