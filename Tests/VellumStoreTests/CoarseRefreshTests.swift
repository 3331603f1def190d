import Foundation
import Testing
@testable import VellumStore

/// Refetch-and-diff: a store that learns only "another connection committed"
/// (no history, or `ChangeDetection.coarse`) still gives its results controllers
/// fine-grained change sets that turn the old list into the new one exactly.
@MainActor
struct CoarseRefreshTests {
    enum Setup: String, CaseIterable { case noHistory, coarseWithHistory }

    static func options(_ setup: Setup) -> StoreOptions {
        var options = StoreOptions()
        switch setup {
        case .noHistory: options.recordsHistory = false
        case .coarseWithHistory: options.changeDetection = .coarse
        }
        return options
    }

    @Test(arguments: Setup.allCases)
    func randomOutsideWritesKeepTheListEqualToAFreshFetch(_ setup: Setup) async throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let url = dir.file("coarse.sqlite")
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url, options: Self.options(setup))
        #expect(container.store.detectsChangesCoarsely)
        let view = container.viewContext
        let request = FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"),
                                   sortDescriptors: [QuerySortDescriptor("stock"), QuerySortDescriptor("price", ascending: false)])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: view, sectionKeyPath: "stock"))
        // Another connection, as another process would write (Vellum's triggers, if any, fire; nobody reads them).
        let outside = try Connection(path: url.path)
        var kinds: Set<String> = []
        for step in 0..<120 {
            let r = Int.random(in: 0..<100, using: &rng)
            let stock = Int64.random(in: 0..<4, using: &rng), price = Double(Int.random(in: 0..<5, using: &rng))
            let target = Int64.random(in: 1...Int64(max(1, step)), using: &rng)
            if r < 35 {
                for _ in 0...Int.random(in: 0..<3, using: &rng) {
                    try outside.run("INSERT INTO Product (_entity, _version, name, price, stock, active) VALUES ('Product', 1, ?, ?, ?, ?)",
                                    [.string("p\(step)"), .double(price), .integer(stock), .integer(Int64.random(in: 0..<2, using: &rng))])
                }
            } else if r < 60 {
                try outside.run("UPDATE Product SET stock = ?, price = ? WHERE _pk = ?", [.integer(stock), .double(price), .integer(target)])
            } else if r < 70 {
                try outside.run("UPDATE Product SET active = 1 - active WHERE _pk % 5 = ?", [.integer(target % 5)])
            } else if r < 85 {
                try outside.run("DELETE FROM Product WHERE _pk = ?", [.integer(target)])
            } else {
                try outside.run("UPDATE Product SET name = name || '+' WHERE _pk = ?", [.integer(target)])
            }
            let expected = try Self.freshSnapshot(request, store: container.store)
            // Generous: the refetch's result is applied on the main queue, which the suite's other
            // main-actor tests share (under TSan it waited 30 s behind them); a list that is right
            // is seen at once.
            let reached = await waitUntil(timeout: 120) { checker.controller.snapshot == expected }
            #expect(reached, "seed \(seed) step \(step): \(checker.controller.snapshot) != \(expected)")
            if !reached { break }
            for c in checker.sets.suffix(3) {
                if !c.objectInserts.isEmpty { kinds.insert("insert") }
                if !c.objectDeletes.isEmpty { kinds.insert("delete") }
                if !c.objectMoves.isEmpty { kinds.insert("move") }
            }
        }
        #expect(checker.failures.isEmpty, "seed \(seed): \(checker.failures.prefix(3))")
        #expect(!checker.sets.contains { $0.isReload }, "seed \(seed): a change was reported as a reload")
        #expect(kinds == ["insert", "delete", "move"], "seed \(seed): \(kinds)")
        // The fetch ran on the controller's private context, not the view context's connection.
        #expect(checker.controller.externalRefetch.reader != nil)
    }

    /// An object on screen (loaded in the view context) whose shown value changes
    /// outside is reported as an update in place — what the browser flashes.
    @Test func aLoadedRowChangedOutsideIsReportedAsAnUpdate() async throws {
        let dir = TempDir()
        let url = dir.file("flash.sqlite")
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url, options: Self.options(.noHistory))
        let view = container.viewContext
        for name in ["a", "b", "c"] { _ = try view.insert("Product", values: ["name": .string(name)]) }
        try view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("name")]), context: view))
        let b = try checker.controller.object(at: ResultsIndexPath(item: 1, section: 0))
        #expect(try sqliteShell(url.path, "UPDATE Product SET price = 9 WHERE name = 'b'") == 0)
        #expect(await waitUntil(timeout: 30) { checker.sets.contains { !$0.objectUpdates.isEmpty } })
        #expect(checker.sets.flatMap(\.objectUpdates).map(\.id) == [b.objectID])
        #expect(try b.value(forKey: "price") == .double(9))
        #expect(checker.failures.isEmpty)
    }

    /// The list as a new controller on a new context reads it now.
    static func freshSnapshot(_ request: FetchRequest, store: PersistentStore) throws -> ResultsSnapshot {
        let controller = ResultsController(fetchRequest: request, context: try ManagedObjectContext(store: store), sectionKeyPath: "stock")
        try controller.performFetch()
        return controller.snapshot
    }
}

/// Another program's plain table (nothing of Vellum in the file), open in a list in key
/// order (the browser's default) or sorted by a column: the refetch compares the rows,
/// in key order, with the list (walking it, or through its sort keys by key), and the
/// sqlite3 shell's inserts, updates and deletes arrive as change sets, never a reload,
/// that leave the list equal to a fresh fetch.
@MainActor
struct ForeignRefreshTests {
    @Test(arguments: [false, true])
    func outsideWritesToAPlainTableKeepTheListEqualToAFreshFetch(sorted: Bool) async throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let path = dir.path("plain.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, qty INTEGER); INSERT INTO item (name, qty) VALUES ('a', 1), ('b', 2), ('c', 3);") == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(store.detectsChangesCoarsely)
        let container = try PersistentContainer(store: store)
        let request = FetchRequest(entityName: "item", sortDescriptors: sorted ? [QuerySortDescriptor("qty")] : [])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: container.viewContext))
        var kinds: Set<String> = []
        for step in 0..<30 {
            let r = Int.random(in: 0..<100, using: &rng)
            let target = Int.random(in: 1...(3 + step), using: &rng), qty = Int.random(in: 0..<5, using: &rng)
            let sql: String
            switch r {
            case ..<35: sql = "INSERT INTO item (name, qty) VALUES ('n\(step)', \(qty)); INSERT INTO item (name, qty) VALUES ('m\(step)', \(qty));"
            case ..<60: sql = "UPDATE item SET qty = \(qty) WHERE id = \(target);"
            case ..<85: sql = "DELETE FROM item WHERE id = \(target) OR id = \(target + 2);"
            default: sql = "UPDATE item SET name = name || '+' WHERE id = \(target);"
            }
            #expect(try sqliteShell(path, sql) == 0)
            let fresh = ResultsController(fetchRequest: request, context: try ManagedObjectContext(store: store))
            try fresh.performFetch()
            let expected = fresh.snapshot
            let reached = await waitUntil(timeout: 120) { checker.controller.snapshot == expected }
            #expect(reached, "seed \(seed) step \(step) (\(sql)): \(checker.controller.snapshot) != \(expected)")
            if !reached { break }
            for c in checker.sets.suffix(3) {
                if !c.objectInserts.isEmpty { kinds.insert("insert") }
                if !c.objectDeletes.isEmpty { kinds.insert("delete") }
            }
        }
        #expect(checker.failures.isEmpty, "seed \(seed): \(checker.failures.prefix(3))")
        #expect(!checker.sets.contains { $0.isReload }, "seed \(seed): a change was reported as a reload")
        #expect(kinds == ["insert", "delete"], "seed \(seed): \(kinds)")
        #expect(checker.controller.externalRefetch.reader != nil)
    }
}
