import CSQLite
import Foundation
import VellumStore

/// Children for instruction counts (callgrind) of the controller and sort workloads.
/// Each counted span is one `@inline(never)` function with a unique name, so
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*ProfileWorkload*NAME*'`
/// counts exactly it (and `--dump-after` the same pattern gives one figure per call):
///
/// - `countedControllerFetch`: `controller-fetch-*`'s timed closure
///   (`performFetch()` sorted by `key`, fetchBatchSize 100, on a fresh context);
///   `countedRawControllerFetch` the raw side (`LiveWorkload.rawControllerFetch`'s loop).
/// - `countedMerge`: `controller-update-1m`'s timed span, one `mergeChanges(from:)`
///   of a one-row sort-key change into the controller's context until its change set
///   is delivered (by a read of the controller after the merge, see there). The updates come from a fixed-seed
///   generator so two builds apply the same ones.
/// - `countedSummary`, `countedGroupFirstPage` (`profile-summary`, `profile-group`, each
///   run 3 times with its wall time on stderr): the store's part of `tui-summary-1m` and
///   `tui-group-1m`.
/// - `countedResort`: what `tui-sort-1m` times in the browser besides tmux and the
///   redraw, `ResultsRowSource.reload()` for a new sort: a new controller sorted by
///   `key`, `performFetch()` of it, and the old controller released.
enum ProfileWorkload {
    static func child(_ workload: String, _ arguments: [String]) throws {
        let url = URL(fileURLWithPath: arguments[0])
        switch workload {
        case "profile-controller-fetch":
            let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
            let ctx = try ManagedObjectContext(store: store)
            let controller = ResultsController(fetchRequest: LiveWorkload.controllerRequest, context: ctx)
            try countedControllerFetch(controller)
            FileHandle.standardError.write(Data("objects: \(controller.fetchedObjectCount)\n".utf8))
        case "profile-controller-fetch-raw":
            let raw = try RecordWorkload.RawDB(path: url.path)
            let n = try countedRawControllerFetch(raw)
            FileHandle.standardError.write(Data("rows: \(n)\n".utf8))
        case "profile-controller-update":
            let updates = arguments.count > 1 ? Int(arguments[1]) ?? 200 : 200
            try controllerUpdate(at: url, updates: updates)
        case "profile-resort":
            try resorts(at: url)
        case "profile-summary", "profile-group":
            let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
            let ctx = try ManagedObjectContext(store: store)
            for run in 1...3 {
                let start = DispatchTime.now().uptimeNanoseconds
                let what = workload == "profile-summary" ? try countedSummary(ctx) : try countedGroupFirstPage(ctx)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                FileHandle.standardError.write(Data("\(workload) run \(run): \(String(format: "%.1f", ms)) ms (\(what))\n".utf8))
            }
        default:
            throw BenchError("unknown child workload '\(workload)'")
        }
    }

    @inline(never) static func countedControllerFetch(_ controller: ResultsController) throws {
        try controller.performFetch()
    }

    @inline(never) static func countedRawControllerFetch(_ raw: RecordWorkload.RawDB) throws -> Int {
        let s = try raw.prepare(LiveWorkload.rawControllerSQL)
        defer { sqlite3_finalize(s) }
        var rows: [(Int64, String, Int64)] = []
        while sqlite3_step(s) == SQLITE_ROW {
            let pk = sqlite3_column_int64(s, 0)
            let entity = sqlite3_column_text(s, 1).map {
                String(decoding: UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(s, 1))), as: UTF8.self)
            } ?? ""
            rows.append((pk, entity, sqlite3_column_int64(s, 2)))
        }
        return rows.count
    }

    /// SplitMix64: the same sequence in every build and run.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// `LiveWorkload.controllerUpdate` with a seeded generator and only the merge counted.
    static func controllerUpdate(at url: URL, updates: Int) throws {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        let view = try ManagedObjectContext(store: store)
        let controller = ResultsController(fetchRequest: LiveWorkload.controllerRequest, context: view)
        let probe = DeliveryProbe()
        controller.delegate = probe
        try controller.performFetch()
        let rowCount = controller.fetchedObjectCount
        let writer = try ManagedObjectContext(store: store)
        var rng = SeededGenerator(state: 12)
        for i in 0..<updates {
            let pk = Int64.random(in: 1...Int64(rowCount), using: &rng)
            let o = try writer.object(with: store.objectID(entity: "Record", primaryKey: pk))
            try o.setValue(.integer(Int64.random(in: 0..<Int64(rowCount), using: &rng)), forKey: "key")
            let event = try writer.save()
            if i % 50 == 49 { writer.reset() }
            let before = probe.deliveries
            try countedMerge(view, event, controller)
            guard probe.deliveries == before + 1 else { throw BenchError("controller-update: no change set delivered") }
        }
        FileHandle.standardError.write(Data("objects: \(rowCount), updates: \(updates)\n".utf8))
    }

    /// The merge, then one read of the controller: since change sets are coalesced per
    /// main-queue turn (a1e8cea), a read applies what the turn collected (before, the
    /// merge itself delivered and the read costs nothing). The loop never ends a turn.
    @inline(never) static func countedMerge(_ view: ManagedObjectContext, _ event: DidSave, _ controller: ResultsController) throws {
        try view.mergeChanges(from: event)
        _ = controller.fetchedObjectCount
    }

    /// What `tui-summary-1m` waits for besides tmux and the redraw: the summary of `key`.
    @inline(never) static func countedSummary(_ ctx: ManagedObjectContext) throws -> String {
        let s = try ctx.summarize(FetchRequest(entityName: "Record"), attribute: "key")
        return "\(s.count) rows, \(s.distinct) distinct, median \(s.median.map { "\($0)" } ?? "-")"
    }

    /// What `tui-group-1m` waits for besides tmux and the redraw: the first page of the
    /// list grouped by `category` (sorted by `key` within), with its sections counted.
    @inline(never) static func countedGroupFirstPage(_ ctx: ManagedObjectContext) throws -> String {
        let request = FetchRequest(entityName: "Record", sortDescriptors: [BenchSort("category"), BenchSort("key")])
        let read = try ResultsController.prepareFetch(ctx, request, sectionKeyPath: "category", firstPage: 256)
        return "\(read.count) rows"
    }

    /// The browser's list on a large store: storage order, first page then the rest
    /// indexed (`ResultsRowSource.reload` + `completeIndexing`); then `s`, `S`, `s` on `key`.
    static func resorts(at url: URL) throws {
        let store = try PersistentStore(url: url, model: nil, options: StoreOptions(createIfMissing: false))
        let ctx = try ManagedObjectContext(store: store)
        var request = FetchRequest(entityName: "Record")
        request.fetchBatchSize = 100
        let list = List(ResultsController(fetchRequest: request, context: ctx))
        try list.controller.performFetch(firstPage: 256)
        try list.controller.completeFetch()
        for ascending in [true, false, true] {
            try countedResort(list, ctx, ascending: ascending)
        }
        FileHandle.standardError.write(Data("objects: \(list.controller.fetchedObjectCount)\n".utf8))
    }

    /// Holds the list's controller as `ResultsRowSource` does, so replacing it releases the old one.
    final class List {
        var controller: ResultsController
        init(_ controller: ResultsController) { self.controller = controller }
    }

    @inline(never) static func countedResort(_ list: List, _ ctx: ManagedObjectContext, ascending: Bool) throws {
        var request = FetchRequest(entityName: "Record", sortDescriptors: [BenchSort("key", ascending: ascending)])
        request.fetchBatchSize = 100
        let fresh = ResultsController(fetchRequest: request, context: ctx)
        try fresh.performFetch()
        list.controller = fresh
    }
}

/// The sort descriptor type of this tree (`SortDescriptor` before the redesign).
typealias BenchSort = QuerySortDescriptor
