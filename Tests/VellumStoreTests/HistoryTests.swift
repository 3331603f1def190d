import Foundation
import Testing
@testable import VellumStore

@Suite struct HistoryTests {
    func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Product") {
                $0.attribute("name", .string, preservedOnDeletion: true)
                $0.attribute("price", .double)
                $0.toOne("provider", "Provider", inverse: "products")
            }
            .entity("Provider") {
                $0.attribute("name", .string)
                $0.toMany("products", "Product", inverse: "provider")
            }
            .build()
    }

    @Test(arguments: StoreEngine.allCases) func savesAreRecordedWithAuthorKindsKeysAndTombstones(_ backend: StoreEngine) throws {
        let dir = TempDir()
        let store = try backend.open(model(), in: dir).store
        let start = try store.currentHistoryToken()
        let ctx = try ManagedObjectContext(store: store)
        ctx.transactionAuthor = "importer"
        let p = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        try ctx.save()
        try p.setValue(.double(2), forKey: "price")
        try ctx.save()
        try ctx.save()  // nothing to save: no transaction
        try ctx.delete(p)
        try ctx.save()
        let txs = try store.history(after: start)
        #expect(txs.count == 3)
        #expect(txs.allSatisfy { $0.author == "importer" && $0.processID == getpid() })
        #expect(txs.map { $0.changes.map(\.kind) } == [[.insert], [.update], [.delete]])
        #expect(txs[1].changes[0].changedKeys == ["price"])
        #expect(txs[2].changes[0].tombstone == ["name": .string("Tea")])
        #expect(txs[0].changes[0].objectID == p.objectID)
        #expect(try store.history(after: start, author: "someone else").isEmpty)
        #expect(try store.history(after: txs[1].token).count == 1)
    }

    @Test(arguments: StoreEngine.allCases) func shellWritesAreRecordedAndNeedNoCustomFunctions(_ backend: StoreEngine) throws {
        let dir = TempDir()
        let opened = try backend.open(model(), in: dir)
        let store = opened.store
        let start = try store.currentHistoryToken()
        try opened.outside(#"INSERT INTO "Product" ("_entity", "name", "price") VALUES ('Product', 'Shell', 5); UPDATE "Product" SET "price" = 6;"#)
        try opened.outside(#"DELETE FROM "Product""#)
        let txs = try store.history(after: start)
        #expect(txs.count == 3)
        #expect(txs.allSatisfy { $0.author == nil && $0.sequence == nil })
        #expect(txs.map { $0.changes.map(\.kind) } == [[.insert], [.update], [.delete]])
        #expect(txs[1].changes[0].changedKeys == ["price"])
        #expect(txs[2].changes[0].tombstone == ["name": .string("Shell")])
    }

    @Test(arguments: StoreEngine.allCases) func prunedHistoryIsDetected(_ backend: StoreEngine) throws {
        let dir = TempDir()
        let store = try backend.open(model(), in: dir).store
        let old = try store.currentHistoryToken()
        let ctx = try ManagedObjectContext(store: store)
        for i in 0..<10 { try ctx.insert("Product", values: ["name": .string("p\(i)")]); try ctx.save() }
        #expect(try store.pruneHistory(keepingLast: 3) == 7)
        #expect { try store.history(after: old) } throws: { if case StoreError.historyExpired = $0 { true } else { false } }
        let recent = try store.currentHistoryToken()
        #expect(try store.history(after: recent).isEmpty)
        try store.pruneHistory(before: Date().addingTimeInterval(60))
        #expect { try store.history(after: HistoryToken(rawValue: recent.rawValue - 1)) } throws: { if case StoreError.historyExpired = $0 { true } else { false } }
    }
}

@MainActor
@Suite(.serialized) struct ConcurrencyRemoteChangeTests {
    @Test func otherContainerAndShellWritesReachTheViewContext() async throws {
        let dir = TempDir()
        let url = dir.file("live.sqlite")
        let model = try Fixtures.shopModel()
        let watcher = try PersistentContainer(model: model, storeURL: url)
        let view = watcher.viewContext
        var events: [ObjectsDidChange] = []
        view.observeChanges { events.append($0) }
        let remoteCount = RemoteCounter()
        watcher.observeRemoteChanges { _ in remoteCount.increment() }
        // Own saves are not remote.
        try await watcher.enqueue { ctx in _ = try ctx.insert("Tag", values: ["name": .string("own")]) }
        // Another store object (its own connections) in this process acts as another writer.
        let other = try PersistentContainer(model: model, storeURL: url)
        other.writeQueueAuthor = "other"
        let id = try await other.enqueue { ctx in try ctx.insert("Product", values: ["name": .string("Remote")]).objectID }
        let permanent = try #require(other.store.permanentID(for: id))
        #expect(await waitUntil { events.contains { $0.inserted.contains(permanent) } })
        #expect(watcher.lastRemoteChange?.author == "other")
        #expect(try view.existingObject(with: permanent)["name"] == .string("Remote"))
        #expect(remoteCount.value == 1)
        // The sqlite3 shell.
        #expect(try sqliteShell(url.path, "UPDATE Product SET price = 42 WHERE name = 'Remote'") == 0)
        #expect(await waitUntil { (try? view.existingObject(with: permanent)["price"]) == .double(42) })
        #expect(events.contains { $0.updated.contains(permanent) && $0.changedKeys[permanent] == ["price"] })
    }

    @Test func storeWithoutHistoryStillUpdates() async throws {
        let dir = TempDir()
        let url = dir.file("nohistory.sqlite")
        var options = StoreOptions()
        options.recordsHistory = false
        let watcher = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url, options: options)
        let view = watcher.viewContext
        var external = 0
        view.observeChanges { if $0.storeChangedExternally { external += 1 } }
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Tag", sortDescriptors: [VellumStore.QuerySortDescriptor("name")]), context: view)
        try controller.performFetch()
        // Our own saves are not mistaken for an outside change.
        try await watcher.enqueue { ctx in _ = try ctx.insert("Tag", values: ["name": .string("own")]) }
        #expect(await waitUntil { controller.fetchedObjectCount == 1 })
        try? await Task.sleep(nanoseconds: 100_000_000)
        #expect(external == 0)
        // The shell's insert reaches the results controller by refetch-and-diff.
        #expect(try sqliteShell(url.path, "INSERT INTO Tag (_entity, name) VALUES ('Tag', 'x')") == 0)
        #expect(await waitUntil { external > 0 })
        #expect(await waitUntil { controller.fetchedObjectCount == 2 })
    }
}

/// What a container's remote-change observer was told, in order.
final class RemoteChangeReports: Sendable {
    let changes = Locked<[RemoteChange]>([])
    var transactions: [HistoryTransaction] {
        changes.withLock { all in
            all.flatMap { change -> [HistoryTransaction] in
                if case .transactions(let ts) = change { return ts }
                return []
            }
        }
    }
    var unknownCount: Int { changes.withLock { $0.filter { if case .unknown = $0 { true } else { false } }.count } }
}

final class RemoteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}

/// History pruned past a running container's token (issue #18: "as on SQLite, refetch
/// everything"), on both engines. Another writer saves and prunes in one transaction (a
/// write group), so the container cannot read the save before its history is gone: it is
/// told `.unknown`, its open list refetches and ends equal to a fresh fetch of the store,
/// and later saves reach it object by object again.
@MainActor
struct PrunedHistoryRefetchTests {
    @Test(arguments: StoreEngine.allCases) func aListRefetchesWhenHistoryIsPrunedPastItsToken(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        let view = container.viewContext
        for i in 0..<6 {
            _ = try view.insert("Product", values: ["name": .string("p\(i)"), "price": .double(Double(i)), "active": .bool(true)])
        }
        try view.save()
        let reports = RemoteChangeReports()
        container.observeRemoteChanges { change in reports.changes.withLock { $0.append(change) } }
        let request = FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"),
                                   sortDescriptors: [QuerySortDescriptor("price"), QuerySortDescriptor("name")])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: view))
        #expect(checker.controller.fetchedObjectCount == 6)
        func storeList() throws -> [ObjectID] { try ManagedObjectContext(store: container.store).fetchObjectIDs(request) }

        // Another process's store object on the same file or schema.
        let other = try PersistentStore.open(location: container.store.path, model: container.model, options: StoreOptions())
        let ctx = try ManagedObjectContext(store: other)
        let rows = try ctx.fetch(FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("name")]))
        let start = try other.currentHistoryToken()
        try other.writeGroup { _ in
            try rows[0].setValue(.double(100), forKey: "price")   // moves to the end
            try rows[1].setValue(.bool(false), forKey: "active")  // leaves the list
            try ctx.delete(rows[2])
            _ = try ctx.insert("Product", values: ["name": .string("new"), "price": .double(2.5), "active": .bool(true)])
            try ctx.save()
            try other.pruneHistory(keepingLast: 0)
        }
        #expect { try other.history(after: start) } throws: { if case StoreError.historyExpired = $0 { true } else { false } }
        #expect(await waitUntil(timeout: 60) { reports.unknownCount > 0 }, "the container was told to refetch")
        #expect(reports.transactions.isEmpty, "nothing could be read from the pruned history")
        #expect(await waitUntil(timeout: 60) { checker.controller.fetchedObjectIDs == (try? storeList()) })
        #expect(checker.controller.fetchedObjectCount == 5)
        #expect(try view.existingObject(with: rows[0].objectID)["price"] == .double(100), "the view context holds the new values")

        // Monitoring goes on from the horizon: the next save arrives object by object.
        let later = try ctx.insert("Product", values: ["name": .string("later"), "price": .double(0), "active": .bool(true)])
        try ctx.save()
        #expect(await waitUntil(timeout: 60) { reports.transactions.contains { $0.changes.contains { $0.objectID == later.objectID && $0.kind == .insert } } })
        #expect(await waitUntil(timeout: 60) { checker.controller.fetchedObjectIDs.first == later.objectID })
        #expect(checker.controller.fetchedObjectIDs == (try storeList()))
        #expect(reports.unknownCount == 1)
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }
}
