import CSQLite
import Foundation
import VellumStore

/// foreign-remote-refresh-*: another program's one-row update of a plain SQLite
/// table (`ForeignWorkload.database`, opened with `PersistentStore.openAny`: the
/// foreign layout and the inferred model) to its change set in an open results
/// controller on the view context, sorted by the updated (unindexed) column.
///
/// Untracked, the store knows changes only coarsely: data_version → refetch off the
/// main thread → diff applied on it. Tracked (`HistoryTracking.track` first, as
/// `vellum track`), other writers' changes arrive object by object from the history
/// the triggers record, and the controller applies them incrementally.
enum ForeignRefreshWorkload {
    struct Figures {
        /// Commit start → the controller's change set, ms.
        var latencies: [Double] = []
        /// The writer's own UPDATE (autocommit, so its commit), ms.
        var commits: [Double] = []
    }

    @MainActor static func measure(at url: URL, rowCount: Int, updates: Int, tracked: Bool) async throws -> Figures {
        let store = try ForeignWorkload.open(url)
        guard store.detectsChangesCoarsely == !tracked else {
            throw BenchError("foreign-remote-refresh: the store detects changes \(store.detectsChangesCoarsely ? "coarsely" : "by history"), expected \(tracked ? "by history" : "coarsely")")
        }
        let container = try PersistentContainer(store: store)
        let controller = ResultsController(fetchRequest: LiveWorkload.controllerRequest, context: container.viewContext)
        let probe = DeliveryProbe()
        controller.delegate = probe
        try controller.performFetch()
        guard controller.fetchedObjectCount == rowCount else {
            throw BenchError("controller holds \(controller.fetchedObjectCount) objects, expected \(rowCount)")
        }
        // Another program: a plain connection, no pragmas (the file stays a rollback-journal database).
        var handle: OpaquePointer?
        guard sqlite3_open_v2(url.path, &handle, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK, let db = handle else {
            throw BenchError("cannot open \(url.path)")
        }
        defer { sqlite3_close_v2(db) }
        sqlite3_busy_timeout(db, 10_000)
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(db, #"UPDATE "Record" SET "key" = ? WHERE "id" = ?"#, -1, &statement, nil) == SQLITE_OK, let s = statement else {
            throw BenchError("prepare: \(String(cString: sqlite3_errmsg(db)))")
        }
        defer { sqlite3_finalize(s) }
        var figures = Figures()
        for i in 0..<updates {
            let pk = Int64.random(in: 1...Int64(rowCount))
            let before = probe.deliveries
            // A key below every other (the earlier updates' included): the row always moves to the top.
            sqlite3_bind_int64(s, 1, -Int64(i) - 1)
            sqlite3_bind_int64(s, 2, pk)
            let t0 = Clocks.monotonicNanos()
            guard sqlite3_step(s) == SQLITE_DONE else { throw BenchError("update: \(String(cString: sqlite3_errmsg(db)))") }
            figures.commits.append(Clocks.ms(from: t0, to: Clocks.monotonicNanos()))
            sqlite3_reset(s)
            let deadline = Date().addingTimeInterval(60)
            while probe.deliveries == before {
                if Date() > deadline { throw BenchError("foreign-remote-refresh: update \(i) never reached the controller") }
                try await Task.sleep(for: .milliseconds(1))
            }
            guard controller.indexPath(for: store.objectID(entity: "Record", primaryKey: pk)) == ResultsIndexPath(item: 0, section: 0) else {
                throw BenchError("foreign-remote-refresh: row \(pk) is not where its new key puts it")
            }
            figures.latencies.append(Clocks.ms(from: t0, to: probe.lastDelivery))
        }
        return figures
    }

    /// Raw SQLite: the keyed, sorted query a list over the table needs from scratch
    /// ((id, key) pairs kept in an array). Returns (ms, rows).
    static func rawKeyedFetch(at path: String) throws -> (Double, Int) {
        var rows: [(Int64, Int64)] = []
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                try ForeignWorkload.plainRead(path, #"SELECT "id", "key" FROM "Record" ORDER BY "key", "id""#) { s in
                    rows.append((sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1)))
                }
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, rows.count)
    }
}
