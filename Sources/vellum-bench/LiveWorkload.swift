import CSQLite
import Foundation
import VellumStore

/// Clocks used by the live (write-queue, merge, controller, remote) benchmarks.
enum Clocks {
    /// Monotonic nanoseconds (in-process latencies).
    static func monotonicNanos() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// CLOCK_REALTIME in microseconds (cross-process latencies).
    static func realtimeMicros() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// User + system CPU time of this process in milliseconds.
    static func processCPUMillis() -> Double {
        var u = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &u)
        func ms(_ t: timeval) -> Double { Double(t.tv_sec) * 1000 + Double(t.tv_usec) / 1000 }
        return ms(u.ru_utime) + ms(u.ru_stime)
    }

    static func ms(from a: UInt64, to b: UInt64) -> Double { b >= a ? Double(b - a) / 1e6 : 0 }
}

/// Nearest-rank percentile of `values` (p in 0...100).
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
    return sorted[min(sorted.count - 1, max(0, rank - 1))]
}

/// A value shared with other threads under a lock.
/// (A class: a noncopyable `Locked` cannot be captured by the escaping closures that share it.)
final class LockedBox<T: Sendable>: Sendable {
    private let stored: Locked<T>
    init(_ value: T) { stored = Locked(value) }
    func withLock<R: Sendable>(_ body: (inout T) -> R) -> R { stored.withLock { body(&$0) } }
    var value: T { withLock { $0 } }
}

/// Records (monotonic) arrival times of a context's objectsDidChange on the main actor
/// and lets the benchmark wait for the n-th one.
@MainActor final class ArrivalProbe {
    private(set) var times: [UInt64] = []
    private var waiter: CheckedContinuation<Void, Never>?
    private var target = 0

    func record() {
        times.append(Clocks.monotonicNanos())
        if let w = waiter, times.count >= target {
            waiter = nil
            w.resume()
        }
    }

    /// Returns when `n` arrivals were recorded, or after `timeout` (the caller checks the count).
    func wait(forCount n: Int, timeout: Duration = .seconds(5)) async {
        if times.count >= n { return }
        target = n
        let watchdog = Task { @MainActor [weak self] in
            try await Task.sleep(for: timeout)
            if let self, let w = self.waiter { self.waiter = nil; w.resume() }
        }
        await withCheckedContinuation { waiter = $0 }
        watchdog.cancel()
    }
}

/// A results-controller delegate recording when each change set is delivered
/// (controllerDidChangeContent), and which objects it inserted/updated/moved.
final class DeliveryProbe: ResultsControllerDelegate {
    var lastDelivery: UInt64 = 0
    var deliveries = 0
    private var pending: [ObjectID] = []
    /// Primary key → CLOCK_REALTIME µs of the change set that first delivered it.
    var arrivalsByPK: [Int64: Int64] = [:]

    func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                    for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) {
        pending.append(objectID)
    }

    func controllerDidChangeContent(_ controller: ResultsController) {
        lastDelivery = Clocks.monotonicNanos()
        let wall = Clocks.realtimeMicros()
        deliveries += 1
        for id in pending { if let pk = id.primaryKey, arrivalsByPK[pk] == nil { arrivalsByPK[pk] = wall } }
        pending.removeAll(keepingCapacity: true)
    }
}

enum LiveWorkload {
    static func values(_ r: RecordWorkload.Row) -> [String: Value] {
        [
            "key": .integer(r.key), "name": .string(r.name), "category": .string(r.category),
            "note": r.note.map(Value.string) ?? .null, "count": .integer(r.count), "flag": .bool(r.flag),
            "rank": .integer(r.rank), "price": .double(r.price), "weight": .double(r.weight), "score": .double(r.score),
        ]
    }

    // MARK: - queue-writes-10k

    /// Writes/s of `rows.count` single-object `enqueue` blocks (completion-handler
    /// form, all submitted, then waited for). Store and container creation untimed.
    static func queueWrites(at url: URL, rows: [RecordWorkload.Row]) throws -> Double {
        let container = try PersistentContainer(model: try RecordWorkload.model(), storeURL: url)
        let group = DispatchGroup()
        let failure = LockedBox<(any Error)?>(nil)
        let start = Clocks.monotonicNanos()
        for r in rows {
            let v = values(r)
            group.enter()
            container.enqueue({ ctx in _ = try ctx.insert("Record", values: v) }, completion: { result in
                if case .failure(let e) = result { failure.withLock { $0 = e } }
                group.leave()
            })
        }
        group.wait()
        let seconds = Double(Clocks.monotonicNanos() - start) / 1e9
        if let e = failure.value { throw e }
        return Double(rows.count) / seconds
    }

    /// Writes/s of the same rows as single-row transactions (`RawRowWriter`).
    static func rawQueueWrites(at path: String, rows: [RecordWorkload.Row]) throws -> Double {
        let writer = try RawRowWriter(path: path)
        let start = Clocks.monotonicNanos()
        for r in rows { try writer.write(r) }
        let seconds = Double(Clocks.monotonicNanos() - start) / 1e9
        return Double(rows.count) / seconds
    }

    /// Single-row transactions (BEGIN IMMEDIATE / INSERT / COMMIT, prepared) with WAL
    /// + synchronous=NORMAL into a table from Vellum's schema SQL, no history.
    final class RawRowWriter {
        private let raw: RecordWorkload.RawDB
        private let insert: OpaquePointer, begin: OpaquePointer, commit: OpaquePointer

        init(path: String) throws {
            raw = try RecordWorkload.RawDB(path: path)
            for sql in NativeLayout(model: try RecordWorkload.model()).schemaSQL() { try raw.exec(sql) }
            insert = try raw.prepare("""
                INSERT INTO "Record" ("_entity", "_version", "key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score") \
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            begin = try raw.prepare("BEGIN IMMEDIATE")
            commit = try raw.prepare("COMMIT")
        }

        deinit {
            sqlite3_finalize(insert)
            sqlite3_finalize(begin)
            sqlite3_finalize(commit)
        }

        func write(_ r: RecordWorkload.Row) throws {
            try raw.step(begin)
            RecordWorkload.bindText(insert, 1, "Record")
            sqlite3_bind_int64(insert, 2, 1)
            RecordWorkload.bindAttributes(insert, r, from: 3)
            try raw.step(insert)
            try raw.step(commit)
        }
    }

    // MARK: - merge-latency

    /// Latencies (ms) from a write-queue save's commit (a save observer on the
    /// write-queue context, run right after COMMIT) to the view context's objectsDidChange
    /// (observer on the main actor). Saves are enqueued one at a time.
    @MainActor static func mergeLatencies(at url: URL, saves: Int, warmup: Int = 20) async throws -> [Double] {
        let container = try PersistentContainer(model: try RecordWorkload.model(), storeURL: url)
        let view = container.viewContext
        let probe = ArrivalProbe()
        let token = view.observeChanges { _ in probe.record() }
        defer { view.removeObserver(token) }
        let commits = LockedBox<[UInt64]>([])
        let rows = RecordWorkload.rows(saves + warmup)
        for (i, r) in rows.enumerated() {
            let v = values(r)
            try await container.enqueue { ctx in
                // The saving context's own save observers run after COMMIT and
                // before the store publishes the save to the container.
                ctx.observeSaves { _ in
                    let t = Clocks.monotonicNanos()
                    commits.withLock { $0.append(t) }
                }
                _ = try ctx.insert("Record", values: v)
            }
            await probe.wait(forCount: i + 1)
            guard probe.times.count == i + 1 else { throw BenchError("merge-latency: save \(i) never reached the view context") }
        }
        let c = commits.value, a = probe.times
        guard c.count == a.count else { throw BenchError("merge-latency: \(c.count) commits, \(a.count) arrivals") }
        return (warmup..<c.count).map { Clocks.ms(from: c[$0], to: a[$0]) }
    }

    // MARK: - Bulk stores for the controller benchmarks

    static let categories = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa"]

    /// Binds row `i` of `count` (key, name, category, note, count, flag, rank, price,
    /// weight, score) to parameters `first`…`first + 9`. `key` is a fixed permutation of
    /// 0..<count (multiplier coprime with count).
    static func bindRecordColumns(_ s: OpaquePointer, row i: Int, of count: Int, from first: Int32) {
        sqlite3_bind_int64(s, first, Int64((i &* 7919 &+ 13) % count))
        RecordWorkload.bindText(s, first + 1, "record number \(i)")
        RecordWorkload.bindText(s, first + 2, categories[i % categories.count])
        if i % 2 == 0 { RecordWorkload.bindText(s, first + 3, "a note for record \(i)") } else { sqlite3_bind_null(s, first + 3) }
        sqlite3_bind_int64(s, first + 4, Int64(i % 1000))
        sqlite3_bind_int64(s, first + 5, i % 3 == 0 ? 1 : 0)
        sqlite3_bind_int64(s, first + 6, Int64(count - i))
        sqlite3_bind_double(s, first + 7, Double(i) * 0.25)
        sqlite3_bind_double(s, first + 8, Double(i % 500) / 7)
        sqlite3_bind_double(s, first + 9, Double(i) / 3)
    }

    /// Creates a store with Vellum (history off), then bulk-loads `count` rows with
    /// one prepared statement in one transaction. `key` = a permutation of 0..<count
    /// (so the ORDER BY really sorts), other columns as in `RecordWorkload.rows`.
    ///
    /// With `recordsHistory` the store keeps its history triggers (so later outside
    /// writes reach other processes' controllers object by object); the bulk load's own
    /// trigger rows are deleted in the same transaction.
    static func bulkStore(at url: URL, count: Int, recordsHistory: Bool = false) throws {
        var options = StoreOptions()
        options.recordsHistory = recordsHistory
        do { _ = try PersistentStore(url: url, model: try RecordWorkload.model(), options: options) }
        let raw = try RecordWorkload.RawDB(path: url.path)
        let s = try raw.prepare("""
            INSERT INTO "Record" ("_pk", "_entity", "_version", "key", "name", "category", "note", "count", "flag", "rank", "price", "weight", "score") \
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        defer { sqlite3_finalize(s) }
        try raw.exec("BEGIN IMMEDIATE")
        for i in 0..<count {
            sqlite3_bind_int64(s, 1, Int64(i + 1))
            RecordWorkload.bindText(s, 2, "Record")
            sqlite3_bind_int64(s, 3, 1)
            bindRecordColumns(s, row: i, of: count, from: 4)
            guard sqlite3_step(s) == SQLITE_DONE else { throw BenchError("bulk insert: \(String(cString: sqlite3_errmsg(raw.db)))") }
            sqlite3_reset(s)
        }
        if recordsHistory { try raw.exec("DELETE FROM _vellum_changes") }
        try raw.exec("COMMIT")
    }

    static let controllerRequest = FetchRequest(entityName: "Record", sortDescriptors: [QuerySortDescriptor("key")], fetchBatchSize: 100)

    // MARK: - controller-fetch

    /// Times `performFetch()` of a results controller (sorted by the unindexed
    /// `key`, fetchBatchSize 100) on a fresh context. Returns (ms, object count).
    static func controllerFetch(at url: URL) throws -> (Double, Int) {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        let ctx = try ManagedObjectContext(store: store)
        let controller = ResultsController(fetchRequest: controllerRequest, context: ctx)
        let ms = try Timing.milliseconds { try controller.performFetch() }
        return (ms, controller.fetchedObjectCount)
    }

    /// The SQL the controller runs (checked against the compiler's by hand; see docs).
    static let rawControllerSQL = """
        SELECT t0."_pk", t0."_entity", t0."key" FROM "Record" AS t0 WHERE 1 ORDER BY t0."key" ASC, t0."_pk" ASC
        """

    /// Times stepping the same query, keeping (pk, key) pairs in an array and
    /// creating the `_entity` String per row, as the controller does. Returns (ms, count).
    static func rawControllerFetch(at path: String) throws -> (Double, Int) {
        let raw = try RecordWorkload.RawDB(path: path)
        var n = 0
        var failure: (any Error)?
        let ms = Timing.milliseconds {
            do {
                // The same loop callgrind counts (`--child profile-controller-fetch-raw`).
                n = try ProfileWorkload.countedRawControllerFetch(raw)
            } catch { failure = error }
        }
        if let failure { throw failure }
        return (ms, n)
    }

    // MARK: - controller-update-1m

    /// A results controller over the whole store on a reader context (standing in
    /// for the view context, whose automatic merge is exactly `mergeChanges(from:)`
    /// on the main queue). Each iteration saves a one-row change of the sort key
    /// (a move to a random position) through a second context, then times
    /// `mergeChanges(from:)` on the controller's context, and the read of the controller
    /// that applies it, until the delegate's `controllerDidChangeContent`. Returns (latencies ms, refetch ms).
    static func controllerUpdate(at url: URL, rowCount: Int, iterations: Int) throws -> ([Double], Double) {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        let view = try ManagedObjectContext(store: store)
        let controller = ResultsController(fetchRequest: controllerRequest, context: view)
        let probe = DeliveryProbe()
        controller.delegate = probe
        try controller.performFetch()
        guard controller.fetchedObjectCount == rowCount else {
            throw BenchError("controller holds \(controller.fetchedObjectCount) objects, expected \(rowCount)")
        }
        let writer = try ManagedObjectContext(store: store)
        var rng = SystemRandomNumberGenerator()
        var latencies: [Double] = []
        for i in 0..<iterations {
            let pk = Int64.random(in: 1...Int64(rowCount), using: &rng)
            let o = try writer.object(with: store.objectID(entity: "Record", primaryKey: pk))
            try o.setValue(.integer(Int64.random(in: 0..<Int64(rowCount), using: &rng)), forKey: "key")
            let event = try writer.save()
            if i % 50 == 49 { writer.reset() }
            let before = probe.deliveries
            let t0 = Clocks.monotonicNanos()
            try view.mergeChanges(from: event)
            // On the main queue change sets are coalesced per turn (a1e8cea) and this loop
            // never ends one: a read of the controller applies what the turn collected, as
            // it does for any reader. (Without it no change set arrives here.)
            _ = controller.fetchedObjectCount
            guard probe.deliveries == before + 1 else { throw BenchError("controller-update: no change set delivered") }
            latencies.append(Clocks.ms(from: t0, to: probe.lastDelivery))
        }
        var refetch = Double.infinity
        for _ in 0..<2 { refetch = min(refetch, try Timing.milliseconds { try controller.performFetch() }) }
        return (latencies, refetch)
    }

    // MARK: - remote-latency

    /// A container with a view-context results controller; a child process
    /// (`--child remote-writer STORE N`) inserts N rows, one save each, ~5 ms apart,
    /// printing "pk commitMicros" per save. Returns latencies (ms) from each
    /// commit to the controller's change set containing that object.
    @MainActor static func remoteLatencies(at url: URL, outputURL: URL, commits: Int) async throws -> [Double] {
        let container = try PersistentContainer(model: try RecordWorkload.model(), storeURL: url)
        let controller = ResultsController(fetchRequest: controllerRequest, context: container.viewContext)
        let probe = DeliveryProbe()
        controller.delegate = probe
        try controller.performFetch()

        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--child", "remote-writer", RecordWorkload.location(url), String(commits)]
        process.standardOutput = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { p in continuation.resume(returning: p.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try output.close()
        guard status == 0 else { throw BenchError("remote-writer child failed (status \(status))") }
        // Let the last commits arrive (the monitor polls every 10 ms).
        for _ in 0..<200 where probe.arrivalsByPK.count < commits {
            try await Task.sleep(for: .milliseconds(10))
        }
        let text = try String(contentsOf: outputURL, encoding: .utf8)
        var latencies: [Double] = []
        var missing = 0
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let pk = Int64(parts[0]), let t = Int64(parts[1]) else { continue }
            guard let arrival = probe.arrivalsByPK[pk] else { missing += 1; continue }
            latencies.append(Double(arrival - t) / 1000)
        }
        _ = controller
        guard latencies.count == commits else {
            throw BenchError("remote-latency: \(latencies.count) of \(commits) commits matched (\(missing) never delivered)")
        }
        return latencies
    }

    /// Child side of remote-latency (`path`: a store file or a `postgresql://` URL).
    static func remoteWriter(path: String, commits: Int) throws {
        let store = try RecordWorkload.openStore(RecordWorkload.url(location: path), model: nil, options: StoreOptions(createIfMissing: false))
        let ctx = try ManagedObjectContext(store: store)
        ctx.transactionAuthor = "remote-writer"
        var lines = ""
        for r in RecordWorkload.rows(commits) {
            _ = try ctx.insert("Record", values: values(r))
            let event = try ctx.save()
            let t = Clocks.realtimeMicros()
            guard let pk = event.inserted.first?.primaryKey else { throw BenchError("remote-writer: no permanent ID") }
            lines += "\(pk) \(t)\n"
            ctx.reset()
            usleep(5000)
        }
        FileHandle.standardOutput.write(Data(lines.utf8))
    }

    // MARK: - monitor-idle-cpu

    /// Child side: optionally opens a container (store at `path`, monitor running),
    /// waits 0.2 s, then measures CPU ms per wall second over `seconds`.
    static func idleCPU(storePath: String?, seconds: Double) throws -> Double {
        var container: PersistentContainer?
        if let storePath {
            container = try PersistentContainer(model: try RecordWorkload.model(), storeURL: URL(fileURLWithPath: storePath))
        }
        usleep(200_000)
        let cpu0 = Clocks.processCPUMillis(), t0 = Clocks.monotonicNanos()
        usleep(useconds_t(seconds * 1e6))
        let cpu1 = Clocks.processCPUMillis(), t1 = Clocks.monotonicNanos()
        withExtendedLifetime(container) {}
        container = nil
        return (cpu1 - cpu0) / (Double(t1 - t0) / 1e9)
    }

    // MARK: - history-overhead

    /// Times one context changing `score` of every record and one save (the fetch
    /// that loads the objects is not timed).
    static func updateAll(at url: URL) throws -> Double {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        let ctx = try ManagedObjectContext(store: store)
        let objects = try ctx.fetch(FetchRequest(entityName: "Record"))
        return try Timing.milliseconds {
            for o in objects {
                guard case .double(let s) = try o.value(forKey: "score") else { throw BenchError("score is not a double") }
                try o.setValue(.double(s + 1), forKey: "score")
            }
            _ = try ctx.save()
        }
    }
}
