import Foundation

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
/// Runs on a private queue.
// Unchecked: the connection and check state are only touched on `queue`; `timer`,
// `watcher` and `usesFileEvents` only by the owner, through `start` then `stop`.
final class RemoteChangeMonitor: @unchecked Sendable {
    private let store: PersistentStore
    private let queue = DispatchQueue(label: "vellum.remote-changes", qos: .userInitiated)
    private let interval: DispatchTimeInterval
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

    init(store: PersistentStore, intervalMilliseconds: Int = 10, schemaObservers: SchemaChangeObservers? = nil,
         handler: @escaping @Sendable (RemoteChange) -> Void) {
        self.store = store
        self.interval = .milliseconds(intervalMilliseconds)
        self.schemaObservers = schemaObservers
        self.handler = handler
    }

    func start() throws {
        try queue.sync {
            let c = try store.makeReaderConnection()
            connection = c
            dataVersion = store.detectsChangesCoarsely ? try store.withWriter { try $0.dataVersion() } : try c.dataVersion()
            lastWriterVersion = try store.withWriter { try $0.dataVersion() }
            token = try store.currentHistoryToken(using: c)
            readSchema(c)
        }
        let url = URL(fileURLWithPath: store.path)
        let name = url.lastPathComponent
        watcher = FileChangeWatcher(directory: url.deletingLastPathComponent().path, names: [name, name + "-wal"], queue: queue) { [weak self] in
            self?.poll()
        }
        usesFileEvents = watcher != nil
        let period: DispatchTimeInterval = usesFileEvents ? .milliseconds(500) : interval
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(usesFileEvents ? 50 : 1))
        t.setEventHandler { [weak self] in self?.poll() }
        timer = t
        t.resume()
    }

    func stop() {
        timer?.cancel()
        timer = nil
        watcher?.cancel()
        watcher = nil
    }

    deinit { timer?.cancel() }

    /// Checks once; used by the timer and by tests that want no delay.
    private func poll() {
        guard let c = connection else { return }
        guard !store.detectsChangesCoarsely else {
            // Without history our own commits cannot be told apart in the file, so ask the
            // writer connection: its data_version moves only when *another* connection commits.
            // A failed check is retried on the next tick (polling: nothing is lost).
            if let version = try? store.withWriter({ try $0.dataVersion() }), version != dataVersion {
                dataVersion = version
                checkSchema(c)
                handler(.unknown)
            }
            return
        }
        guard let version = try? c.dataVersion(), version != dataVersion else { return }   // retried next tick
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
                return
            }
        }
        do {
            var transactions: [HistoryTransaction] = []
            while true {
                let batch = try store.history(after: token, using: c)
                guard let last = batch.last else { break }
                token = last.token
                transactions += batch.filter { t in t.sequence.map { !store.ownTransactions.consume($0) } ?? true }
                if batch.count < 100 { break }
            }
            if !transactions.isEmpty { handler(.transactions(transactions)) }
        } catch let error where Self.needsRefetch(error) {
            // Consumers refetch everything on `.unknown`, so nothing is missed; keeping the
            // old token when the newest cannot be read just means reading from there again.
            token = (try? store.currentHistoryToken(using: c)) ?? token
            handler(.unknown)
        } catch {
            // An unreadable moment (busy checkpoint): try again on the next tick.
            dataVersion = 0
        }
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
