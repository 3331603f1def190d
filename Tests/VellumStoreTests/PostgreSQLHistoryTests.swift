import Foundation
import Testing
@testable import VellumStore

/// Issue #18: PostgreSQL stores record persistent history as SQLite stores do, and
/// other machines' commits reach a container object by object (insert, update,
/// delete with keys and tombstones), not only as "something changed".
@Suite struct PostgreSQLHistoryTests {
    typealias Reports = RemoteChangeReports

    @MainActor @Test func anotherMachinesSavesAndPsqlWritesArriveObjectByObject() async throws {
        let url = try PostgreSQLShop.newStoreURL()
        let model = try Fixtures.shopModel()
        let watcher = try PersistentContainer(model: model, storeURL: url)
        let reports = Reports()
        watcher.observeRemoteChanges { change in reports.changes.withLock { $0.append(change) } }
        let view = watcher.viewContext
        var events: [ObjectsDidChange] = []
        view.observeChanges { events.append($0) }

        let other = try PersistentContainer(model: model, storeURL: url)
        other.writeQueueAuthor = "machine-b"
        let temporary = try await other.enqueue { ctx in try ctx.insert("Product", values: ["name": .string("Tea")]).objectID }
        let id = try #require(other.store.permanentID(for: temporary))
        #expect(await waitUntil(timeout: 60) { reports.transactions.contains { $0.changes.contains { $0.objectID == id && $0.kind == .insert } } })
        #expect(reports.transactions.first?.author == "machine-b")
        #expect(await waitUntil(timeout: 60) { events.contains { $0.inserted.contains(id) && !$0.storeChangedExternally } })
        #expect(watcher.lastRemoteChange?.author == "machine-b")

        let pk = try #require(id.primaryKey)
        _ = try PostgreSQLShop.psql(url, #"UPDATE "Product" SET "price" = 4.5 WHERE "_pk" = "# + String(pk))
        #expect(await waitUntil(timeout: 60) { reports.transactions.contains { $0.changes.contains { $0.objectID == id && $0.kind == .update } } })
        let update = try #require(reports.transactions.last)
        #expect(update.author == nil && update.sequence == nil)
        #expect(update.changes.map(\.changedKeys) == [["price"]])
        #expect(await waitUntil(timeout: 60) { (try? view.existingObject(with: id)["price"]) == .double(4.5) })

        _ = try PostgreSQLShop.psql(url, #"DELETE FROM "Product" WHERE "_pk" = "# + String(pk))
        #expect(await waitUntil(timeout: 60) { events.contains { $0.deleted.contains(id) } })
        #expect(reports.unknownCount == 0, "every change was read from history")
    }

    @Test func ownSavesAreNotReportedAndOutsideUpdatesBumpTheVersion() async throws {
        let url = try PostgreSQLShop.newStoreURL()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url)
        let reports = Reports()
        container.observeRemoteChanges { change in reports.changes.withLock { $0.append(change) } }
        let store = container.store
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        try ctx.save()
        #expect(try PostgreSQLShop.psql(url, #"SELECT "_version"::text FROM "Product""#) == ["1"])
        _ = try PostgreSQLShop.psql(url, #"UPDATE "Product" SET "price" = 5"#)
        #expect(try PostgreSQLShop.psql(url, #"SELECT "_version"::text FROM "Product""#) == ["2"])
        try p.setValue(.double(2), forKey: "price")
        #expect(throws: StoreError.self) { try ctx.save() }
        #expect(try PostgreSQLShop.psql(url, #"SELECT "price"::text FROM "Product""#) == ["5"], "the other program's value is kept")
        #expect(await waitUntil(timeout: 60) { !reports.transactions.isEmpty })
        #expect(reports.transactions.map { $0.changes.map(\.kind) } == [[.update]], "the own insert is not reported")
    }

    @Test func joinTableRowsWrittenOutsideAreUpdatesOfBothSides() throws {
        let url = try PostgreSQLShop.newStoreURL()
        let store = try PostgreSQLShop.open(url)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea")])
        let t = try ctx.insert("Tag", values: ["name": .string("hot")])
        try ctx.save()
        let start = try store.currentHistoryToken()
        let join = try #require(store.layout.joinTables.first { $0.sourceTable == "Product" || $0.targetTable == "Product" })
        let (source, target) = join.sourceTable == "Product" ? (p, t) : (t, p)
        _ = try PostgreSQLShop.psql(url, "INSERT INTO \"\(join.table)\" (\"\(join.sourceColumn)\", \"\(join.targetColumn)\") VALUES (\(source.objectID.primaryKey!), \(target.objectID.primaryKey!))")
        let changes = try store.history(after: start).flatMap(\.changes)
        #expect(Set(changes.map(\.objectID)) == [p.objectID, t.objectID])
        #expect(Set(changes.map(\.changedKeys)) == [["tags"], ["products"]])
    }

    @Test func aTruncateOutsideTellsReadersToRefetch() throws {
        let url = try PostgreSQLShop.newStoreURL()
        let store = try PostgreSQLShop.open(url)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Tag", values: ["name": .string("a")])
        try ctx.save()
        let before = try store.currentHistoryToken()
        _ = try PostgreSQLShop.psql(url, #"TRUNCATE "Tag" CASCADE"#)
        #expect { try store.history(after: before) } throws: { if case StoreError.historyExpired = $0 { true } else { false } }
        #expect(try store.history(after: store.currentHistoryToken()).isEmpty)
    }
}
