import Foundation
import Synchronization

/// What another writer did, as seen by the monitor.
public enum RemoteChange: Sendable {
    /// Transactions read from persistent history (this process's own saves skipped).
    case transactions([HistoryTransaction])
    /// The file changed but records no history (or it was pruned past us, or a change in it
    /// cannot be read): refetch and diff.
    case unknown
}

/// Notices commits made through other connections — another process, the
/// `sqlite3` shell — by checking `PRAGMA data_version` (it changes only when
/// someone else commits), then reads the new history. Checks run when inotify
/// reports a write to the database or its WAL (no CPU while idle), plus a slow
/// timer as a safety net; without inotify, the timer polls every 10 ms.
/// A file event whose check finds nothing new is followed by a few quick
/// re-checks (`recheckDelays`): a WAL commit writes its frames to `-wal` (an
/// inotify event) and only then publishes itself in `-shm`, which is memory-mapped
/// and raises no event, so a check between the two sees nothing and no later
/// event would come for that commit.
/// Runs on a private queue.
// Unchecked: the connection and check state are only touched on `queue`; `timer`,
// `watcher` and `usesFileEvents` only by the owner, through `start` then `stop`.
final class RemoteChangeMonitor: @unchecked Sendable {
    let store: PersistentStore
    private let queue = DispatchQueue(label: "vellum.remote-changes", qos: .userInitiated)
    private let interval: DispatchTimeInterval
    /// The safety timer's period while inotify drives the checks.
    private let safetyInterval: DispatchTimeInterval
    private var timer: DispatchSourceTimer?
    private var watcher: FileChangeWatcher?
    /// True when inotify drives the checks (the timer is then only a safety net).
    private(set) var usesFileEvents = false
    // Only touched on `queue`.
    private var connection: Connection?
    private var dataVersion: Int64 = 0
    private var token: HistoryToken = .start
    /// The writer connection's data_version at the last check.
    private var lastWriterVersion: Int64 = 0
    private let handler: @Sendable (RemoteChange) -> Void
    /// Told when another program changes tables or columns (`RemoteChangeMonitor+Schema`).
    let schemaObservers: SchemaChangeObservers?
    /// The schema at the last check; only touched on `queue`.
    var schema = SchemaState()
    /// A Core Data store's changes object by object (nil: other stores); only touched on `queue`.
    private var coreDataChanges: CoreDataChangeReader?
    /// True when our own commits cannot be told apart in the file (no Vellum history): the
    /// writer connection's data_version is asked instead, which moves only for other connections.
    private var watchesWriterVersion: Bool { !store.hasHistory || store.options.changeDetection == .coarse }
    /// History watches only some of the tables (a file tracked in part): another writer's
    /// commit may have changed the others too, so each one also asks for a refetch.
    private var historyLeavesTablesOut = false
    /// Delays (ms) of the re-checks after a file event that found no new commit:
    /// doubling, so a writer preempted between its WAL write and its `-shm` update
    /// is still seen within a few ms usually, and within ~0.25 s at worst.
    static let recheckDelays = [1, 2, 4, 8, 16, 32, 64, 128]
    /// Bumped by every file event (on `queue`): a newer event supersedes older re-checks.
    private var recheckGeneration = 0
    /// Set on `queue` by `stop()`: pending re-checks do nothing.
    private var stopped = false
    /// Checks made so far (tests wait for one without sleeping).
    private let checks = Atomic<Int>(0)
    var checkCount: Int { checks.load(ordering: .acquiring) }

    init(store: PersistentStore, intervalMilliseconds: Int = 10, safetyIntervalMilliseconds: Int = 500,
         schemaObservers: SchemaChangeObservers? = nil, handler: @escaping @Sendable (RemoteChange) -> Void) {
        self.store = store
        self.interval = .milliseconds(intervalMilliseconds)
        self.safetyInterval = .milliseconds(safetyIntervalMilliseconds)
        self.schemaObservers = schemaObservers
        self.handler = handler
    }

    func start() throws {
        try queue.sync {
            let c = try store.makeReaderConnection()
            connection = c
            dataVersion = watchesWriterVersion ? try store.withWriter { try $0.dataVersion() } : try c.dataVersion()
            lastWriterVersion = try store.withWriter { try $0.dataVersion() }
            token = try store.currentHistoryToken(using: c)
            if !watchesWriterVersion { historyLeavesTablesOut = !(try store.tablesWithoutHistory(using: c)).isEmpty }
            if !store.detectsChangesCoarsely, case .rowVersions(let rows) = store.layout.changeSource {
                coreDataChanges = try CoreDataChangeReader(store: store, rows: rows, connection: c)
            }
            readSchema(c)
        }
        let url = URL(fileURLWithPath: store.path)
        let name = url.lastPathComponent
        watcher = FileChangeWatcher(directory: url.deletingLastPathComponent().path, names: [name, name + "-wal"], queue: queue) { [weak self] in
            self?.fileChanged()
        }
        usesFileEvents = watcher != nil
        let period: DispatchTimeInterval = usesFileEvents ? safetyInterval : interval
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(usesFileEvents ? 50 : 1))
        t.setEventHandler { [weak self] in _ = self?.poll() }
        timer = t
        t.resume()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        watcher?.cancel()
        watcher = nil
        queue.async { [self] in stopped = true }
    }

    /// A watched file was written: check, and if that found nothing, check again shortly.
    private func fileChanged() {
        recheckGeneration &+= 1
        if !poll() { recheck(generation: recheckGeneration, attempt: 0) }
    }

    /// The `attempt`th re-check after an empty wake-up; stops at the first change seen,
    /// after the last delay, or when a newer file event took over.
    private func recheck(generation: Int, attempt: Int) {
        guard attempt < Self.recheckDelays.count else { return }
        queue.asyncAfter(deadline: .now() + .milliseconds(Self.recheckDelays[attempt])) { [weak self] in
            guard let self, !self.stopped, self.recheckGeneration == generation else { return }
            if !self.poll() { self.recheck(generation: generation, attempt: attempt + 1) }
        }
    }

    deinit { timer?.cancel() }

    /// Checks once; used by the timer and by tests that want no delay.
    /// Returns false when nothing had changed since the last check.
    @discardableResult
    private func poll() -> Bool {
        checks.add(1, ordering: .releasing)
        guard let c = connection else { return false }
        guard !watchesWriterVersion else {
            // Without history our own commits cannot be told apart in the file, so ask the
            // writer connection: its data_version moves only when *another* connection commits.
            // A failed check is retried on the next tick (polling: nothing is lost).
            guard let version = try? store.withWriter({ try $0.dataVersion() }), version != dataVersion else { return false }
            dataVersion = version
            checkSchema(c)
            handler(coreDataChange(c))
            return true
        }
        guard let version = try? c.dataVersion(), version != dataVersion else { return false }   // retried next tick
        dataVersion = version
        checkSchema(c)
        // Only our own saves since the last check? The writer's data_version moves only
        // for other connections' commits: then skip past our history without reading it.
        // (The newest id is read before the version, so no other writer's row can hide in it.)
        // A shortcut only: when it fails, the history below is read instead.
        if let (newest, writerVersion) = try? store.withWriter({ db in
            (try db.scalarInt("SELECT max(id) FROM \(HistorySchema.changes)"), try db.dataVersion())
        }) {
            defer { lastWriterVersion = writerVersion }
            if writerVersion == lastWriterVersion {
                if let newest { token = max(token, HistoryToken(rawValue: newest)) }
                store.ownTransactions.removeAll()
                return true
            }
        }
        do {
            let transactions = try store.othersTransactions(after: &token, using: c)
            if !transactions.isEmpty { handler(.transactions(transactions)) }
            // What it did to untracked tables left no history: refetch and diff.
            if historyLeavesTablesOut { handler(.unknown) }
        } catch let error where Self.needsRefetch(error) {
            // Consumers refetch everything on `.unknown`, so nothing is missed; keeping the
            // old token when the newest cannot be read just means reading from there again.
            token = (try? store.currentHistoryToken(using: c)) ?? token
            handler(.unknown)
        } catch {
            // An unreadable moment (busy checkpoint): try again on the next tick (or re-check).
            dataVersion = 0
            return false
        }
        return true
    }

    /// A Core Data store's changes object by object; refetch and diff (`.unknown`) when none
    /// could be told (a write that bumped no `Z_OPT`, or an unreadable moment).
    private func coreDataChange(_ c: Connection) -> RemoteChange {
        guard let reader = coreDataChanges, let transactions = try? reader.read(c), !transactions.isEmpty else { return .unknown }
        return .transactions(transactions)
    }

    /// History after the token cannot be read as changes (pruned, or a row that is
    /// unreadable for good): the consumer must refetch. SQLite failures (a busy
    /// checkpoint, I/O) are retried on the next tick instead.
    static func needsRefetch(_ error: any Error) -> Bool {
        guard let e = error as? StoreError else { return false }
        if case .sqlite = e { return false }
        return !e.isBusy
    }
}
