import Foundation
import Testing
@testable import VellumStore

/// Two containers on one PostgreSQL store, each with its own connections (as two
/// machines would be): commits of one, and of `psql`-like programs, reach the other's
/// view context and results controller through `LISTEN`/`NOTIFY`.
@Suite struct PostgreSQLLiveTests {
    @MainActor @Test func anotherContainersCommitsReachTheViewContextAndAResultsController() async throws {
        let url = try PostgreSQLShop.newStoreURL()
        let model = try Fixtures.shopModel()
        let watcher = try PersistentContainer(model: model, storeURL: url)
        let view = watcher.viewContext
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("name")]), context: view))
        let other = try PersistentContainer(model: model, storeURL: url)
        for name in ["b", "a", "c"] {
            try await other.enqueue { ctx in _ = try ctx.insert("Product", values: ["name": .string(name)]) }
        }
        func shown() -> [String] {
            checker.controller.snapshot.objectIDs.map { ((try? view.existingObject(with: $0)).flatMap { try? $0["name"] })?.stringValue ?? "?" }
        }
        #expect(await waitUntil(timeout: 30) { shown() == ["a", "b", "c"] })
        // Another program's write (plain SQL on its own connection) shows too.
        _ = try PostgreSQLShop.psql(url, #"UPDATE "Product" SET "name" = 'z' WHERE "name" = 'a'"#)
        #expect(await waitUntil(timeout: 30) { shown() == ["b", "c", "z"] })
        try await other.enqueue { ctx in try ctx.fetch("Product", where: QueryPredicate(format: "name == 'b'")).forEach(ctx.delete) }
        #expect(await waitUntil(timeout: 30) { shown() == ["c", "z"] })
        #expect(checker.failures.isEmpty && !checker.sets.isEmpty)
    }

    @MainActor @Test func ownSavesAreMergedOnceAndNotReportedAsRemote() async throws {
        let url = try PostgreSQLShop.newStoreURL()
        let container = try PersistentContainer(model: try Fixtures.shopModel(), storeURL: url)
        let remote = Locked(0)
        container.observeRemoteChanges { _ in remote.withLock { $0 += 1 } }
        let view = container.viewContext
        try await container.enqueue { ctx in _ = try ctx.insert("Tag", values: ["name": .string("mine")]) }
        #expect(await waitUntil(timeout: 30) { (try? view.count(FetchRequest(entityName: "Tag"))) == 1 })
        // A marker commit from elsewhere: once it is reported, the own save would have been too.
        _ = try PostgreSQLShop.psql(url, #"INSERT INTO "Tag" ("_entity", "name") VALUES ('Tag', 'theirs')"#)
        #expect(await waitUntil(timeout: 30) { remote.withLock { $0 } >= 1 })
        #expect(remote.withLock { $0 } == 1)
    }
}
