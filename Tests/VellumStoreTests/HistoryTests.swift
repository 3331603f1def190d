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

final class RemoteCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func increment() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
