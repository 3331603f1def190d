import Foundation
import VellumStore

/// The benchmarks, their shared fixtures (generated rows, a populated store) and
/// the child-process workloads used for peak memory.
@MainActor final class Suite {
    static let runs = 3
    /// foreign-keyed-update-200k's saves per run (`VELLUM_BENCH_KEYED_UPDATES`: fewer, where each takes long).
    static let keyedUpdates = ProcessInfo.processInfo.environment["VELLUM_BENCH_KEYED_UPDATES"].flatMap { Int($0) } ?? 1000
    static let names = [
        "insert-100k", "fetch-100k", "insert-100k-typed", "fetch-100k-typed", "insert-100k-peak-rss", "fetch-100k-peak-rss",
        "queue-writes-10k", "queue-lone-write-p50", "queue-lone-write-p99", "merge-latency-p50", "merge-latency-p99",
        "controller-fetch-100k", "controller-fetch-100k-peak-rss", "controller-fetch-1m", "controller-fetch-1m-peak-rss",
        "controller-update-1m-p50", "controller-update-1m-p99", "remote-latency-p50", "remote-latency-p99",
        "monitor-idle-cpu", "history-overhead-insert", "history-overhead-update",
        "tui-first-screen-1m", "tui-first-screen-1m-excluding-tmux", "tui-rss-1m", "tui-sort-1m", "tui-key-redraw-p50", "tui-key-redraw-p99",
        "tui-key-redraw-saving-p50", "tui-key-redraw-saving-p99", "tui-remote-to-screen",
        "tui-filter-contains-1m", "tui-find-1m", "tui-summary-1m", "tui-group-1m", "tui-rss-after-ops-1m",
        "foreign-fetch-100k", "foreign-first-screen-1m", "foreign-keyed-update-200k", "coredata-open-model", "coredata-open-model-large", "coredata-fetch-100k", "coredata-insert-100k",
        "foreign-remote-refresh-10k", "foreign-remote-refresh-1m",
        "foreign-remote-refresh-tracked-10k", "foreign-remote-refresh-tracked-1m",
        "migrate-add-attribute-1m", "migrate-rebuild-1m",
        "pg-insert-100k", "pg-fetch-100k", "pg-queue-writes-10k", "pg-remote-latency-p50", "pg-remote-latency-p99",
    ]

    let directory: URL
    private var cachedRows: [RecordWorkload.Row]?
    private var populated: URL?
    private var counter = 0
    private var bulkStores: [Int: URL] = [:]
    /// Results of runs that feed several rows (p50 and p99 of one run, …).
    private var memo: [String: [Double]] = [:]

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { removeScratch() }

    /// Removes the temp directory with every store the benchmarks made.
    nonisolated func removeScratch() { try? FileManager.default.removeItem(at: directory) }

    var rows: [RecordWorkload.Row] {
        if let cachedRows { return cachedRows }
        let r = RecordWorkload.rows()
        cachedRows = r
        return r
    }

    /// A fresh file path in the temp directory.
    func freshPath(_ stem: String) -> URL {
        counter += 1
        return directory.appendingPathComponent("\(stem)-\(counter).sqlite")
    }

    /// A store holding the 100k records (made once with Vellum, shared by both fetch sides).
    func populatedStore() throws -> URL {
        if let populated { return populated }
        let url = directory.appendingPathComponent("fetch.vellum")
        _ = try RecordWorkload.vellumInsert(at: url, rows: rows)
        populated = url
        return url
    }

    /// A store of `count` records bulk-loaded with raw SQLite (history off).
    func bulkStore(_ count: Int) throws -> URL {
        if let url = bulkStores[count] { return url }
        let url = directory.appendingPathComponent("bulk-\(count).vellum")
        try LiveWorkload.bulkStore(at: url, count: count)
        bulkStores[count] = url
        return url
    }

    func memoized(_ key: String, _ body: () async throws -> [Double]) async rethrows -> [Double] {
        if let v = memo[key] { return v }
        let v = try await body()
        memo[key] = v
        return v
    }

    /// (p50, p99) of write-queue save → view-context objectsDidChange.
    func mergeLatency() async throws -> [Double] {
        try await memoized("merge") {
            let l = try await LiveWorkload.mergeLatencies(at: freshPath("merge"), saves: 1000)
            return [percentile(l, 50), percentile(l, 99)]
        }
    }

    /// (p50, p99, raw p50, raw p99) of one write-queue block on an idle queue, 1,000 writes.
    func loneWrite() async throws -> [Double] {
        try await memoized("lone") {
            let rows = RecordWorkload.rows(1_000)
            let l = try LoneWriteWorkload.latencies(at: freshPath("lone"), rows: rows)
            let raw = try LoneWriteWorkload.rawLatencies(at: freshPath("raw-lone").path, rows: rows)
            return [percentile(l, 50), percentile(l, 99), percentile(raw, 50), percentile(raw, 99)]
        }
    }

    /// (p50, p99, refetch ms) of a one-row update in a 1M-row controller.
    func controllerUpdate() async throws -> [Double] {
        try await memoized("update") {
            let (l, refetch) = try LiveWorkload.controllerUpdate(at: try bulkStore(1_000_000), rowCount: 1_000_000, iterations: 200)
            return [percentile(l, 50), percentile(l, 99), refetch]
        }
    }

    /// (p50, p99) of another process's commit → this process's controller change set
    /// (`store`: a file, or a PostgreSQL schema for pg-remote-latency).
    func remoteLatency(_ key: String, store: () throws -> URL) async throws -> [Double] {
        try await memoized(key) {
            let l = try await LiveWorkload.remoteLatencies(at: try store(), outputURL: freshPath("\(key)-writer-out"), commits: 500)
            return [percentile(l, 50), percentile(l, 99)]
        }
    }

    func pgRemoteLatency() async throws -> [Double] {
        try await remoteLatency("pg-remote") { let pg = try postgreSQL(); return pg.storeURL(schema: pg.freshSchema("remote")) }
    }

    /// The bench's PostgreSQL server, started on first use (a failure, or `Skipped`, is kept).
    private var server: Swift.Result<BenchPostgreSQL, any Error>?
    func postgreSQL() throws -> BenchPostgreSQL {
        if server == nil { server = Swift.Result { try BenchPostgreSQL() } }
        return try server!.get()
    }

    /// A schema holding the 100k records (made once with Vellum, shared by both pg-fetch sides).
    private var pgPopulated: String?
    func pgPopulatedSchema() throws -> String {
        if let pgPopulated { return pgPopulated }
        let pg = try postgreSQL(), schema = pg.freshSchema("fetch")
        _ = try RecordWorkload.vellumInsert(at: pg.storeURL(schema: schema), rows: rows)
        pgPopulated = schema
        return schema
    }

    /// p50 of another program's one-row update → change set in an open list of a plain
    /// SQLite table. Untracked: beside it the raw keyed, sorted query (what a list costs
    /// from scratch). Tracked (history installed first): beside it the writer's own commit.
    func foreignRefresh(_ count: Int, updates: Int, tracked: Bool) async throws -> Measurement {
        let url = tracked ? try trackedForeignDatabase(count) : try foreignDatabase(count)
        let f = try await ForeignRefreshWorkload.measure(at: url, rowCount: count, updates: updates, tracked: tracked)
        if tracked { return Measurement(value: percentile(f.latencies, 50), baseline: percentile(f.commits, 50)) }
        let (rawMs, rawN) = try ForeignRefreshWorkload.rawKeyedFetch(at: url.path)
        if rawN != count { throw BenchError("raw keyed fetch: \(rawN) rows, expected \(count)") }
        return Measurement(value: percentile(f.latencies, 50), baseline: rawMs)
    }

    /// Rows/s with history on and off: [insertOn, insertOff, updateOn, updateOff].
    func historyOverhead() async throws -> [Double] {
        try await memoized("history") {
            let rows = self.rows
            var off = StoreOptions()
            off.recordsHistory = false
            var insertOn = Double.infinity, insertOff = Double.infinity, updateOn = Double.infinity, updateOff = Double.infinity
            for _ in 0..<2 {
                let a = freshPath("history-on"), b = freshPath("history-off")
                insertOn = min(insertOn, try RecordWorkload.vellumInsert(at: a, rows: rows))
                insertOff = min(insertOff, try RecordWorkload.vellumInsert(at: b, rows: rows, options: off))
                updateOn = min(updateOn, try LiveWorkload.updateAll(at: a))
                updateOff = min(updateOff, try LiveWorkload.updateAll(at: b))
            }
            let n = Double(rows.count)
            return [n / insertOn * 1000, n / insertOff * 1000, n / updateOn * 1000, n / updateOff * 1000]
        }
    }

    /// All tui-* figures from one run of the real `vellum` binary in tmux (TUIWorkload).
    private var tuiFigures: TUIWorkload.Figures?
    func tui() throws -> TUIWorkload.Figures {
        if let tuiFigures { return tuiFigures }
        _ = try TUIWorkload.vellumBinary()  // fail before generating the store
        let url = directory.appendingPathComponent("tui-\(TUIWorkload.rowCount).vellum")
        try LiveWorkload.bulkStore(at: url, count: TUIWorkload.rowCount, recordsHistory: true)
        // ~150 MB: removed at once (main.swift exits without running Suite.deinit).
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) } }
        let f = try TUIWorkload.measure(store: url)
        tuiFigures = f
        return f
    }

    /// Another program's database of `count` rows (`ForeignWorkload.database`: raw SQL), made once.
    func foreignDatabase(_ count: Int) throws -> URL {
        let url = directory.appendingPathComponent("foreign-\(count).sqlite")
        if !FileManager.default.fileExists(atPath: url.path) { try ForeignWorkload.database(at: url, count: count) }
        return url
    }

    /// A copy of it with Vellum's history installed, as `vellum track` does (made once).
    func trackedForeignDatabase(_ count: Int) throws -> URL {
        let url = directory.appendingPathComponent("foreign-tracked-\(count).sqlite")
        if !FileManager.default.fileExists(atPath: url.path) {
            try ForeignWorkload.database(at: url, count: count)
            try HistoryTracking.track(try HistoryTracking.plan(path: url.path))
        }
        return url
    }

    /// Best of `runs` of `measure` and of `baseline`, interleaved so both see the same load:
    /// the lowest (times), or with `highest` the highest (throughputs).
    func best(_ runs: Int, highest: Bool = false, _ measure: () throws -> Double, baseline: () throws -> Double) rethrows -> Measurement {
        let better: (Double, Double) -> Double = highest ? { max($0, $1) } : { min($0, $1) }
        var best = highest ? 0 : Double.infinity, bestRaw = best
        for _ in 0..<runs {
            best = better(best, try measure())
            bestRaw = better(bestRaw, try baseline())
        }
        return Measurement(value: best, baseline: bestRaw)
    }

    /// `best` of two fetches of the same rows whose (ms, checksum) must agree in every run.
    func bestFetch(_ runs: Int, _ measure: () throws -> (Double, Int64), baseline: () throws -> (Double, Int64)) throws -> Measurement {
        var sum: Int64 = 0
        return try best(runs, { let (ms, s) = try measure(); sum = s; return ms }, baseline: {
            let (ms, s) = try baseline()
            if s != sum { throw BenchError("fetch checksums differ: \(sum), baseline \(s)") }
            return ms
        })
    }

    func controllerFetch(_ count: Int) throws -> Measurement {
        let url = try bulkStore(count)
        _ = try LiveWorkload.rawControllerFetch(at: url.path)  // warm the page cache
        var best = Double.infinity, bestRaw = Double.infinity
        for _ in 0..<(count > 100_000 ? 2 : Self.runs) {
            let (ms, n) = try LiveWorkload.controllerFetch(at: url)
            let (rawMs, rawN) = try LiveWorkload.rawControllerFetch(at: url.path)
            if n != count || rawN != count { throw BenchError("controller fetch: \(n) objects, raw \(rawN) rows, expected \(count)") }
            best = min(best, ms)
            bestRaw = min(bestRaw, rawMs)
        }
        return Measurement(value: best, baseline: bestRaw)
    }

    func controllerFetchRSS(_ count: Int) throws -> Measurement {
        let path = try bulkStore(count).path
        let kb = try Memory.peakResidentKBOfChild(["--child", "controller-fetch", path])
        let rawKB = try Memory.peakResidentKBOfChild(["--child", "controller-fetch-raw", path])
        return Measurement(value: Double(kb) / 1024, baseline: Double(rawKB) / 1024)
    }

    var benchmarks: [Benchmark] {
        [
            Benchmark(name: "insert-100k", unit: "ms") { [self] in
                let rows = self.rows
                var best = Double.infinity, bestRaw = Double.infinity
                for _ in 0..<Self.runs {
                    // Interleaved so both sides see the same machine load.
                    best = min(best, try RecordWorkload.vellumInsert(at: freshPath("vellum-insert"), rows: rows))
                    bestRaw = min(bestRaw, try RecordWorkload.rawInsert(at: freshPath("raw-insert").path, rows: rows))
                }
                return Measurement(value: best, baseline: bestRaw)
            },
            // The same rows through the seeds' convenience, a [String: Value] per object.
            Benchmark(name: "insert-100k-dictionary", unit: "ms") { [self] in
                let rows = self.rows
                var best = Double.infinity, bestRaw = Double.infinity
                for _ in 0..<Self.runs {
                    best = min(best, try RecordWorkload.vellumInsert(at: freshPath("vellum-insert-dictionary"), rows: rows, style: .dictionary))
                    bestRaw = min(bestRaw, try RecordWorkload.rawInsert(at: freshPath("raw-insert").path, rows: rows))
                }
                return Measurement(value: best, baseline: bestRaw)
            },
            // A bulk import that relates every object (a to-one whose inverse grows).
            Benchmark(name: "insert-related-100k", unit: "ms") { [self] in
                var best = Double.infinity, bestRaw = Double.infinity
                for _ in 0..<2 {
                    best = min(best, try RelatedWorkload.vellumInsert(at: freshPath("vellum-related")))
                    bestRaw = min(bestRaw, try RelatedWorkload.rawInsert(at: freshPath("raw-related").path))
                }
                return Measurement(value: best, baseline: bestRaw)
            },
            Benchmark(name: "fetch-100k", unit: "ms") { [self] in
                let url = try populatedStore()
                _ = try RecordWorkload.rawFetch(at: url.path)  // warm the page cache
                return try bestFetch(Self.runs, { try RecordWorkload.vellumFetch(at: url) }, baseline: { try RecordWorkload.rawFetch(at: url.path) })
            },
            // Typed access (generated `Record`), each beside the untyped figure of the same run.
            Benchmark(name: "insert-100k-typed", unit: "ms") { [self] in
                let rows = self.rows
                var best = Double.infinity, bestUntyped = Double.infinity
                for _ in 0..<Self.runs {
                    best = min(best, try TypedRecordWorkload.insert(at: freshPath("typed-insert"), rows: rows))
                    bestUntyped = min(bestUntyped, try RecordWorkload.vellumInsert(at: freshPath("untyped-insert"), rows: rows))
                }
                return Measurement(value: best, baseline: bestUntyped)
            },
            Benchmark(name: "fetch-100k-typed", unit: "ms") { [self] in
                let url = try populatedStore()
                _ = try RecordWorkload.vellumFetch(at: url)  // warm the page cache
                return try bestFetch(Self.runs, { try TypedRecordWorkload.fetch(at: url) }, baseline: { try RecordWorkload.vellumFetch(at: url) })
            },
            Benchmark(name: "insert-100k-peak-rss", unit: "MB") { [self] in
                let kb = try Memory.peakResidentKBOfChild(["--child", "insert", directory.path])
                let rawKB = try Memory.peakResidentKBOfChild(["--child", "insert-raw", directory.path])
                return Measurement(value: Double(kb) / 1024, baseline: Double(rawKB) / 1024)
            },
            Benchmark(name: "fetch-100k-peak-rss", unit: "MB") { [self] in
                _ = try populatedStore()
                let kb = try Memory.peakResidentKBOfChild(["--child", "fetch", directory.path])
                let rawKB = try Memory.peakResidentKBOfChild(["--child", "fetch-raw", directory.path])
                return Measurement(value: Double(kb) / 1024, baseline: Double(rawKB) / 1024)
            },
            // Throughput: higher is better, so ratio < 1 means Vellum is slower.
            Benchmark(name: "queue-writes-10k", unit: "writes/s") { [self] in
                let rows = RecordWorkload.rows(10_000)
                return try best(2, highest: true, { try LiveWorkload.queueWrites(at: freshPath("queue"), rows: rows) },
                                baseline: { try LiveWorkload.rawQueueWrites(at: freshPath("raw-queue").path, rows: rows) })
            },
            Benchmark(name: "queue-lone-write-p50", unit: "ms") { [self] in
                let l = try await loneWrite()
                return Measurement(value: l[0], baseline: l[2])
            },
            Benchmark(name: "queue-lone-write-p99", unit: "ms") { [self] in
                let l = try await loneWrite()
                return Measurement(value: l[1], baseline: l[3])
            },
            Benchmark(name: "merge-latency-p50", unit: "ms") { [self] in Measurement(value: try await mergeLatency()[0]) },
            Benchmark(name: "merge-latency-p99", unit: "ms") { [self] in Measurement(value: try await mergeLatency()[1]) },
            Benchmark(name: "controller-fetch-100k", unit: "ms") { [self] in try controllerFetch(100_000) },
            Benchmark(name: "controller-fetch-100k-peak-rss", unit: "MB") { [self] in try controllerFetchRSS(100_000) },
            Benchmark(name: "controller-fetch-1m", unit: "ms") { [self] in try controllerFetch(1_000_000) },
            Benchmark(name: "controller-fetch-1m-peak-rss", unit: "MB") { [self] in try controllerFetchRSS(1_000_000) },
            Benchmark(name: "controller-update-1m-p50", unit: "ms") { [self] in
                let u = try await controllerUpdate()
                return Measurement(value: u[0], baseline: u[2])
            },
            Benchmark(name: "controller-update-1m-p99", unit: "ms") { [self] in
                let u = try await controllerUpdate()
                return Measurement(value: u[1], baseline: u[2])
            },
            Benchmark(name: "remote-latency-p50", unit: "ms") { [self] in Measurement(value: try await remoteLatency("remote") { freshPath("remote") }[0]) },
            Benchmark(name: "remote-latency-p99", unit: "ms") { [self] in Measurement(value: try await remoteLatency("remote") { freshPath("remote") }[1]) },
            Benchmark(name: "monitor-idle-cpu", unit: "cpu-ms/s") { [self] in
                // Both children idle at the same time (3 s), so one costs no extra wall time.
                let withMonitor = try ChildProcess.start(["--child", "idle-cpu", "3", freshPath("idle").path])
                let without = try ChildProcess.start(["--child", "idle-cpu", "3"])
                guard let v = Double(try withMonitor.finish()), let b = Double(try without.finish()) else {
                    throw BenchError("idle-cpu children printed no number")
                }
                return Measurement(value: v, baseline: b)
            },
            // value = rows/s with history, baseline = rows/s without; ratio (on/off) is the figure.
            Benchmark(name: "history-overhead-insert", unit: "rows/s") { [self] in
                let h = try await historyOverhead()
                return Measurement(value: h[0], baseline: h[1])
            },
            Benchmark(name: "history-overhead-update", unit: "rows/s") { [self] in
                let h = try await historyOverhead()
                return Measurement(value: h[2], baseline: h[3])
            },
            Benchmark(name: "foreign-fetch-100k", unit: "ms") { [self] in
                let url = try foreignDatabase(100_000)
                _ = try ForeignWorkload.rawFetch(at: url.path)  // warm the page cache
                return try best(Self.runs, {
                    let (ms, n) = try ForeignWorkload.fetch(at: url)
                    if n != 100_000 { throw BenchError("foreign fetch: \(n) objects, expected 100000") }
                    return ms
                }, baseline: { try ForeignWorkload.rawFetch(at: url.path).0 })
            },
            Benchmark(name: "foreign-keyed-update-200k", unit: "ms") { [self] in
                let url = directory.appendingPathComponent("foreign-keyed-200k.sqlite")
                if !FileManager.default.fileExists(atPath: url.path) { try ForeignKeyedUpdateWorkload.database(at: url) }
                var round = 0
                return try best(Self.runs, {
                    round += 1
                    return try ForeignKeyedUpdateWorkload.update(at: url, updates: Self.keyedUpdates, round: round)
                }, baseline: { try ForeignKeyedUpdateWorkload.rawUpdate(at: url.path, updates: Self.keyedUpdates, round: round) })
            },
            Benchmark(name: "foreign-first-screen-1m", unit: "ms") { [self] in
                let url = try foreignDatabase(1_000_000)
                _ = try ForeignWorkload.rawFetch(at: url.path)  // warm the page cache
                return try best(Self.runs, { try ForeignWorkload.firstScreen(at: url) }, baseline: { try ForeignWorkload.rawFirstScreen(at: url.path) })
            },
            Benchmark(name: "migrate-add-attribute-1m", unit: "ms") { [self] in
                let store = try bulkStore(1_000_000), model = try MigrationWorkload.addedAttributeModel()
                return try best(Self.runs, { try MigrationWorkload.vellum(store, to: model, scratch: freshPath("migrate")) },
                                baseline: { try MigrationWorkload.rawAddColumn(store, scratch: freshPath("migrate-raw")) })
            },
            Benchmark(name: "migrate-rebuild-1m", unit: "ms") { [self] in
                let store = try bulkStore(1_000_000), model = try MigrationWorkload.removedAttributeModel()
                return try best(Self.runs, { try MigrationWorkload.vellum(store, to: model, scratch: freshPath("migrate")) },
                                baseline: { try MigrationWorkload.rawRebuild(store, scratch: freshPath("migrate-raw")) })
            },
            // The real browser in tmux on a 1M-row store (one session run feeds them all).
            // Baseline: tmux launching `cat` of the same marker, polled the same way.
            Benchmark(name: "tui-first-screen-1m", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.firstScreen, 50), baseline: percentile(f.firstScreenTmuxBaseline, 50))
            },
            // The figure less the harness: median launch minus median tmux + `cat` launch.
            Benchmark(name: "tui-first-screen-1m-excluding-tmux", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.firstScreen, 50) - percentile(f.firstScreenTmuxBaseline, 50))
            },
            Benchmark(name: "tui-rss-1m", unit: "MB") { [self] in Measurement(value: try tui().rssMB) },
            Benchmark(name: "tui-sort-1m", unit: "ms") { [self] in Measurement(value: percentile(try tui().sort, 50)) },
            // Baseline: the same send-keys/capture-pane loop with a key echoed by `cat`'s tty.
            Benchmark(name: "tui-key-redraw-p50", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.keyRedraw, 50), baseline: percentile(f.keyEchoBaseline, 50))
            },
            Benchmark(name: "tui-key-redraw-p99", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.keyRedraw, 99), baseline: percentile(f.keyEchoBaseline, 99))
            },
            // While the browser's own save waits on the write queue; baseline: the same loop with none.
            Benchmark(name: "tui-key-redraw-saving-p50", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.keyRedrawSaving, 50), baseline: percentile(f.keyRedraw, 50))
            },
            Benchmark(name: "tui-key-redraw-saving-p99", unit: "ms") { [self] in
                let f = try tui()
                return Measurement(value: percentile(f.keyRedrawSaving, 99), baseline: percentile(f.keyRedraw, 99))
            },
            Benchmark(name: "tui-remote-to-screen", unit: "ms") { [self] in Measurement(value: percentile(try tui().remote, 50)) },
            // Issue #17: median of 3 each (TUIOperations.swift); no baseline, as the other tui figures.
            Benchmark(name: "tui-filter-contains-1m", unit: "ms") { [self] in Measurement(value: percentile(try tui().filter, 50)) },
            Benchmark(name: "tui-find-1m", unit: "ms") { [self] in Measurement(value: percentile(try tui().find, 50)) },
            Benchmark(name: "tui-summary-1m", unit: "ms") { [self] in Measurement(value: percentile(try tui().summary, 50)) },
            Benchmark(name: "tui-group-1m", unit: "ms") { [self] in Measurement(value: percentile(try tui().group, 50)) },
            Benchmark(name: "tui-rss-after-ops-1m", unit: "MB") { [self] in Measurement(value: try tui().rssAfterOpsMB) },
            Benchmark(name: "coredata-open-model", unit: "ms") { [self] in
                let url = try CoreDataModelWorkload.fixture(copyInto: directory)
                let best = try Timing.best(of: 20) { try CoreDataModelWorkload.open(url) }
                let bestRaw = try Timing.best(of: 20) { try CoreDataModelWorkload.rawRead(url) }
                return Measurement(value: best, baseline: bestRaw)
            },
            Benchmark(name: "coredata-open-model-large", unit: "ms") { [self] in
                let url = directory.appendingPathComponent("coredata-large-model.sqlite")
                _ = try CoreDataLargeModel.make(at: url, from: try CoreDataModelWorkload.fixture(copyInto: directory))
                let best = try Timing.best(of: 20) { try CoreDataModelWorkload.open(url) }
                let bestRaw = try Timing.best(of: 20) { try CoreDataModelWorkload.rawRead(url) }
                return Measurement(value: best, baseline: bestRaw)
            },
            Benchmark(name: "coredata-fetch-100k", unit: "ms") { [self] in
                let url = freshPath("coredata-fetch")
                try CoreDataStoreWorkload.store(at: url, count: 100_000)
                _ = try CoreDataStoreWorkload.rawFetch(at: url)  // warm the page cache
                return try best(Self.runs, {
                    let (ms, n) = try ForeignWorkload.fetch(at: url, entity: "Person")
                    if n != 100_020 { throw BenchError("coredata fetch: \(n) objects, expected 100020") }
                    return ms
                }, baseline: { try CoreDataStoreWorkload.rawFetch(at: url).0 })
            },
            Benchmark(name: "coredata-insert-100k", unit: "ms") { [self] in
                try best(Self.runs, { try CoreDataStoreWorkload.insert(at: freshPath("coredata-insert"), count: 100_000) },
                         baseline: { try CoreDataStoreWorkload.rawInsert(at: freshPath("coredata-insert-raw"), count: 100_000) })
            },
            // Another program's update to an open list, p50. Untracked (coarse: refetch and diff),
            // baseline the raw keyed, sorted query; tracked (history), baseline the writer's commit.
            Benchmark(name: "foreign-remote-refresh-10k", unit: "ms") { [self] in try await foreignRefresh(10_000, updates: 40, tracked: false) },
            Benchmark(name: "foreign-remote-refresh-1m", unit: "ms") { [self] in try await foreignRefresh(1_000_000, updates: 10, tracked: false) },
            Benchmark(name: "foreign-remote-refresh-tracked-10k", unit: "ms") { [self] in try await foreignRefresh(10_000, updates: 40, tracked: true) },
            Benchmark(name: "foreign-remote-refresh-tracked-1m", unit: "ms") { [self] in try await foreignRefresh(1_000_000, updates: 20, tracked: true) },
            // PostgreSQL (the bench's own server, BenchPostgreSQL): each beside raw libpq doing the same work.
            Benchmark(name: "pg-insert-100k", unit: "ms") { [self] in
                let pg = try postgreSQL(), rows = self.rows
                return try best(Self.runs, { try RecordWorkload.vellumInsert(at: pg.storeURL(schema: pg.freshSchema("insert")), rows: rows) },
                                baseline: { try PostgreSQLWorkload.rawInsert(url: pg.databaseURL, schema: pg.freshSchema("raw_insert"), rows: rows) })
            },
            Benchmark(name: "pg-fetch-100k", unit: "ms") { [self] in
                let pg = try postgreSQL(), schema = try pgPopulatedSchema()
                _ = try PostgreSQLWorkload.rawFetch(url: pg.databaseURL, schema: schema)  // warm the server's buffers
                return try bestFetch(Self.runs, { try RecordWorkload.vellumFetch(at: pg.storeURL(schema: schema)) },
                                     baseline: { try PostgreSQLWorkload.rawFetch(url: pg.databaseURL, schema: schema) })
            },
            Benchmark(name: "pg-queue-writes-10k", unit: "writes/s") { [self] in
                let pg = try postgreSQL(), rows = RecordWorkload.rows(10_000)
                return try best(2, highest: true, { try LiveWorkload.queueWrites(at: pg.storeURL(schema: pg.freshSchema("queue")), rows: rows) },
                                baseline: { try PostgreSQLWorkload.rawQueueWrites(url: pg.databaseURL, schema: pg.freshSchema("raw_queue"), rows: rows) })
            },
            Benchmark(name: "pg-remote-latency-p50", unit: "ms") { [self] in Measurement(value: try await pgRemoteLatency()[0]) },
            Benchmark(name: "pg-remote-latency-p99", unit: "ms") { [self] in Measurement(value: try await pgRemoteLatency()[1]) },
        ]
    }

    /// Runs one workload in this (child) process: `insert`/`fetch`/`controller-fetch`
    /// (and `-raw`) print VmHWM in kB; `remote-writer STORE N` prints "pk commitMicros"
    /// lines; `idle-cpu SECONDS [STORE]` prints CPU ms per wall second.
    static func runChild(_ arguments: [String]) throws {
        guard arguments.count >= 2 else { throw BenchError("usage: vellum-bench --child WORKLOAD ARG...") }
        let workload = arguments[0]
        switch workload {
        case "remote-writer":
            guard arguments.count == 3, let n = Int(arguments[2]) else { throw BenchError("usage: --child remote-writer STORE N") }
            try LiveWorkload.remoteWriter(path: arguments[1], commits: n)
            return
        case "idle-cpu":
            guard let seconds = Double(arguments[1]) else { throw BenchError("usage: --child idle-cpu SECONDS [STORE]") }
            print(String(format: "%.4f", try LiveWorkload.idleCPU(storePath: arguments.count > 2 ? arguments[2] : nil, seconds: seconds)))
            return
        case "controller-fetch":
            _ = try LiveWorkload.controllerFetch(at: URL(fileURLWithPath: arguments[1]))
        case "controller-fetch-raw":
            _ = try LiveWorkload.rawControllerFetch(at: arguments[1])
        case "bulk-store":
            // `bulk-store PATH N [history]`: with `history`, the history triggers are kept (as tui-*'s store).
            guard arguments.count >= 3, let n = Int(arguments[2]) else { throw BenchError("usage: --child bulk-store PATH N [history]") }
            try LiveWorkload.bulkStore(at: URL(fileURLWithPath: arguments[1]), count: n, recordsHistory: arguments.count > 3 && arguments[3] == "history")
        case let w where w.hasPrefix("profile-"):
            try ProfileWorkload.child(w, Array(arguments.dropFirst()))
        case "migrate-add", "migrate-add-raw", "migrate-rebuild", "migrate-rebuild-raw":
            try MigrationWorkload.child(workload, store: URL(fileURLWithPath: arguments[1]))
        default:
            // An optional repeat count makes a child a steady workload for a profiler.
            let repeats = arguments.count > 2 ? max(1, Int(arguments[2]) ?? 1) : 1
            for _ in 0..<repeats { try runMemoryChild(workload, directory: URL(fileURLWithPath: arguments[1])) }
        }
        guard let kb = Memory.peakResidentKB() else { throw BenchError("cannot read VmHWM from /proc/self/status") }
        print(kb)
    }

    private static func runMemoryChild(_ workload: String, directory: URL) throws {
        let id = UUID().uuidString
        switch workload {
        case "insert":
            _ = try RecordWorkload.vellumInsert(at: directory.appendingPathComponent("child-\(id).vellum"), rows: RecordWorkload.rows())
        case "insert-dictionary":
            _ = try RecordWorkload.vellumInsert(at: directory.appendingPathComponent("child-\(id).vellum"), rows: RecordWorkload.rows(), style: .dictionary)
        case "insert-raw":
            _ = try RecordWorkload.rawInsert(at: directory.appendingPathComponent("child-\(id).sqlite").path, rows: RecordWorkload.rows())
        case "fetch":
            _ = try RecordWorkload.vellumFetch(at: directory.appendingPathComponent("fetch.vellum"))
        case "fetch-typed":
            _ = try TypedRecordWorkload.fetch(at: directory.appendingPathComponent("fetch.vellum"))
        case "fetch-raw":
            _ = try RecordWorkload.rawFetch(at: directory.appendingPathComponent("fetch.vellum").path)
        case "queue-writes":
            _ = try LiveWorkload.queueWrites(at: directory.appendingPathComponent("child-\(id).vellum"), rows: RecordWorkload.rows(10_000))
        case "queue-writes-raw":
            _ = try LiveWorkload.rawQueueWrites(at: directory.appendingPathComponent("child-\(id).sqlite").path, rows: RecordWorkload.rows(10_000))
        case "coredata-insert":
            _ = try CoreDataStoreWorkload.insert(at: directory.appendingPathComponent("child-\(id).sqlite"), count: 100_000)
        case "coredata-insert-raw":
            _ = try CoreDataStoreWorkload.rawInsert(at: directory.appendingPathComponent("child-\(id).sqlite"), count: 100_000)
        case "foreign-fetch", "foreign-fetch-raw":
            // foreign-fetch-100k's database (raw SQL), made once per folder: a steady workload for a profiler.
            let url = directory.appendingPathComponent("foreign-100000.sqlite")
            if !FileManager.default.fileExists(atPath: url.path) { try ForeignWorkload.database(at: url, count: 100_000) }
            if workload == "foreign-fetch" { _ = try ForeignWorkload.fetch(at: url) } else { _ = try ForeignWorkload.rawFetch(at: url.path) }
        case "coredata-fetch", "coredata-fetch-raw":
            // The store is made once per folder (untimed, and outside the counted closures).
            let url = directory.appendingPathComponent("coredata-fetch.sqlite")
            if !FileManager.default.fileExists(atPath: url.path) { try CoreDataStoreWorkload.store(at: url, count: 100_000) }
            if workload == "coredata-fetch" { _ = try ForeignWorkload.fetch(at: url, entity: "Person") } else { _ = try CoreDataStoreWorkload.rawFetch(at: url) }
        default:
            throw BenchError("unknown child workload '\(workload)'")
        }
    }
}
