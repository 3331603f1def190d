import Foundation
import Testing
@testable import VellumStore

/// Representative behaviours under `CoreDataNamedLayout`: if contexts, queries,
/// history or results assumed the native names anywhere, these would fail.
@Suite(.serialized) struct SecondLayoutTests {
    static var options: StoreOptions {
        var o = StoreOptions()
        o.layout = { CoreDataNamedLayout(model: $0) }
        return o
    }

    static func open(_ dir: TempDir) throws -> PersistentStore {
        try PersistentStore(url: dir.file("z.sqlite"), model: Fixtures.shopModel(), options: options)
    }

    /// Saves a provider, three products (tags, ordered images) and a task and a note.
    static func seed(_ store: PersistentStore) throws {
        let c = try ManagedObjectContext(store: store)
        let acme = try c.insert("Provider", values: ["name": .string("Acme")])
        let red = try c.insert("Tag", values: ["name": .string("red")])
        let blue = try c.insert("Tag", values: ["name": .string("blue")])
        for (name, price, tags) in [("Anvil", 10.0, [red]), ("Rope", 2.0, [red, blue]), ("Élan", 5.0, [ManagedObject]())] {
            let p = try c.insert("Product", values: ["name": .string(name), "price": .double(price)])
            try p.setToOne("provider", acme)
            try p.setToMany("tags", tags)
            if name == "Anvil" {
                let images = try ["b", "a", "c"].map { try c.insert("Image", values: ["url": .uri(URL(string: "http://x/\($0)")!)]) }
                try p.setToMany("images", images)
            }
        }
        _ = try c.insert("Task", values: ["title": .string("do"), "done": .bool(true)])
        _ = try c.insert("Note", values: ["title": .string("say"), "body": .string("hi")])
        try c.save()
    }

    static func names(_ objects: [ManagedObject], _ key: String = "name") throws -> [String] {
        try objects.map { o in
            switch try o[key] {
            case .string(let s): return s
            case .uri(let u): return u.absoluteString
            default: return "nil"
            }
        }
    }

    @Test func theFileUsesTheLayoutsNames() throws {
        let dir = TempDir()
        try Self.seed(try Self.open(dir))
        let tables = try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%vellum%' AND name NOT LIKE 'sqlite%' ORDER BY name")
        #expect(tables == ["ZIMAGE", "ZITEM", "ZPRODUCT", "ZPROVIDER", "ZTAG", "Z_PRODUCT_TAGS"])
        let rows = try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT Z_PK, Z_ENT, Z_OPT, ZNAME FROM ZPRODUCT ORDER BY ZNAME")
        #expect(rows == ["1|Product|1|Anvil", "2|Product|1|Rope", "3|Product|1|Élan"])
        #expect(try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT count(*) FROM Z_PRODUCT_TAGS") == ["3"])
        #expect(try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT ZURL FROM ZIMAGE ORDER BY Z_FOK_PRODUCT_POSITION") == ["http://x/b", "http://x/a", "http://x/c"])
    }

    @Test func fetchesWithPredicatesAndSorts() throws {
        let dir = TempDir()
        let store = try Self.open(dir)
        try Self.seed(store)
        try Self.expectSeededFetches(try ManagedObjectContext(store: store))
    }

    /// What fetches of the seeded store return, whatever its layout or database.
    static func expectSeededFetches(_ c: ManagedObjectContext) throws {
        let byPrice = [QuerySortDescriptor("price")]
        #expect(try Self.names(try c.fetch("Product", where: QueryPredicate(format: "ANY tags.name == 'red'"), sortedBy: byPrice)) == ["Rope", "Anvil"])
        #expect(try Self.names(try c.fetch("Product", where: QueryPredicate(format: "provider.name == 'Acme' AND price > 3"), sortedBy: byPrice)) == ["Élan", "Anvil"])
        #expect(try Self.names(try c.fetch("Product", where: QueryPredicate(format: "name ==[cd] 'elan'"))) == ["Élan"])
        #expect(try Self.names(try c.fetch("Product", where: QueryPredicate(format: "tags.@count == 0"))) == ["Élan"])
        #expect(try Self.names(try c.fetch("Item", sortedBy: [QuerySortDescriptor("title")]), "title") == ["do", "say"])
        #expect(try Self.names(try c.fetch("Task"), "title") == ["do"])
        #expect(try c.count(FetchRequest(entityName: "Product", predicate: QueryPredicate(format: "price < 6"))) == 2)
        #expect(try Self.names(try c.fetch(FetchRequest(entityName: "Product", sortDescriptors: byPrice, fetchLimit: 1, fetchOffset: 1))) == ["Élan"])
    }

    @Test func relationshipsReadBackInOrder() throws {
        let dir = TempDir()
        try Self.seed(try Self.open(dir))
        try Self.expectSeededRelationships(try ManagedObjectContext(store: try Self.open(dir)))
    }

    /// The seeded store's relationships, read back in order.
    static func expectSeededRelationships(_ c: ManagedObjectContext) throws {
        let anvil = try #require(try c.fetch("Product", where: QueryPredicate(format: "name == 'Anvil'")).first)
        #expect(try Self.names(try anvil.toMany("images"), "url") == ["http://x/b", "http://x/a", "http://x/c"])
        #expect(try Self.names(try anvil.toMany("tags")).sorted() == ["red"])
        let red = try #require(try c.fetch("Tag", where: QueryPredicate(format: "name == 'red'")).first)
        #expect(try Self.names(try red.toMany("products")).sorted() == ["Anvil", "Rope"])
        #expect(try anvil.toOne("provider")?["name"] == .string("Acme"))
    }

    @Test func deleteRulesApply() throws {
        let dir = TempDir()
        let store = try Self.open(dir)
        try Self.seed(store)
        try Self.deleteSeededProviderThenAnvil(try ManagedObjectContext(store: store))
        #expect(try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT count(*) FROM Z_PRODUCT_TAGS") == ["2"])
    }

    /// Deleting the provider is denied (it has products); deleting Anvil cascades to its images.
    static func deleteSeededProviderThenAnvil(_ c: ManagedObjectContext) throws {
        let acme = try #require(try c.fetch("Provider").first)
        try c.delete(acme)
        #expect(throws: (any Error).self) { try c.save() }  // deny: it has products
        c.rollback()
        let anvil = try #require(try c.fetch("Product", where: QueryPredicate(format: "name == 'Anvil'")).first)
        try c.delete(anvil)
        try c.save()  // cascade: its images go; its join rows go
        #expect(try c.fetch("Image").isEmpty)
    }

    @Test func optimisticLockingSeesAnotherContextsSave() throws {
        let dir = TempDir()
        let store = try Self.open(dir)
        try Self.seed(store)
        let mine = try ManagedObjectContext(store: store)
        let theirs = try ManagedObjectContext(store: store)
        try Self.expectRopeVersionConflict(mine: mine, theirs: theirs)
        #expect(try sqliteShellOutput(dir.file("z.sqlite").path, "SELECT ZPRICE, Z_OPT FROM ZPRODUCT WHERE ZNAME = 'Rope'") == ["7.0|2"])
    }

    /// Both contexts read Rope; theirs saves first, so mine's save is a version conflict (1 → 2).
    static func expectRopeVersionConflict(mine: ManagedObjectContext, theirs: ManagedObjectContext) throws {
        let a = try #require(try mine.fetch("Product", where: QueryPredicate(format: "name == 'Rope'")).first)
        let b = try #require(try theirs.fetch("Product", where: QueryPredicate(format: "name == 'Rope'")).first)
        try b.setValue(.double(7), forKey: "price")
        try theirs.save()
        try a.setValue(.double(9), forKey: "price")
        var failure: StoreError?
        do { try mine.save() } catch { failure = error as? StoreError }
        guard case .conflicts(let cs)? = failure else {
            Issue.record("expected a version conflict, got \(String(describing: failure))"); return
        }
        #expect(cs.count == 1 && cs[0].kind == .version && cs[0].oldVersion == 1 && cs[0].newVersion == 2)
    }

    @MainActor @Test func anotherContainersSaveReachesHistoryAndAResultsController() async throws {
        let dir = TempDir()
        let url = dir.file("z.sqlite")
        let model = try Fixtures.shopModel()
        let watcher = try PersistentContainer(model: model, storeURL: url, options: Self.options)
        let view = watcher.viewContext
        let start = try watcher.store.currentHistoryToken()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("name")]), context: view))
        let other = try PersistentContainer(model: model, storeURL: url, options: Self.options)
        other.writeQueueAuthor = "other"
        try await other.enqueue { ctx in _ = try ctx.insert("Product", values: ["name": .string("Remote")]) }
        func shown() -> [Value] { checker.controller.snapshot.objectIDs.map { ((try? view.existingObject(with: $0)).flatMap { try? $0["price"] }) ?? .null } }
        #expect(await waitUntil { shown().count == 1 })
        #expect(checker.failures.isEmpty && !checker.sets.isEmpty)
        #expect(try watcher.store.history(after: start).map(\.author) == ["other"])
        // A write from outside Vellum: the layout's trigger records it and bumps Z_OPT.
        #expect(try sqliteShell(url.path, "UPDATE ZPRODUCT SET ZPRICE = 42 WHERE ZNAME = 'Remote'") == 0)
        #expect(await waitUntil { shown() == [.double(42)] })
        #expect(try sqliteShellOutput(url.path, "SELECT Z_OPT FROM ZPRODUCT") == ["2"])
        #expect(checker.failures.isEmpty)
    }
}

/// The lines the sqlite3 shell prints for `sql` on a file.
func sqliteShellOutput(_ path: String, _ sql: String) throws -> [String] {
    try sqliteOutput(path, sql).split(separator: "\n").map(String.init)
}
