import Foundation

/// Owns one store and hands out contexts: the main-actor view context for the
/// UI, private background contexts, and the serial write queue. Every save is
/// merged into the view context (unless `automaticallyMergesChanges` is off).
public final class PersistentContainer: Sendable {
    public let store: PersistentStore
    private let writeQueue: WriteQueue
    /// What the saving threads, the monitor's queue and the main actor share.
    private let shared = Locked(Shared())
    private struct Shared {
        var viewContextIdentity: ObjectIdentifier?
        var saveSubscription: UUID?
        var automaticMerging = true
        var viewContextPolicy: MergePolicy = .mergeByPropertyObjectTrump
        var monitor: RemoteChangeMonitor?
        var serverMonitor: PostgreSQLChangeMonitor?
        var remoteObservers: [UUID: @Sendable (RemoteChange) -> Void] = [:]
        var lastRemote: (author: String?, date: Date)?
    }
    @MainActor private var viewContextStorage: ManagedObjectContext?
    @MainActor private var mergeErrorHandler: ((Error) -> Void)?
    /// Merges waiting for the server to answer again, oldest first (`merge(_:)`).
    @MainActor private var mergeBacklog: [DidSave?] = []
    @MainActor private var mergeRetries = 0
    /// The view context's reader connection, opened by `init` so that failures are
    /// thrown there, and taken once by the main actor when it creates the view context.
    private let viewConnection: Locked<Connection?>
    /// Told of other programs' schema changes by the monitor (`PersistentContainer+SchemaChanges`).
    let schemaObservers = SchemaChangeObservers()

    public var model: ManagedObjectModel { store.model }

    /// `migration` decides what happens when the file or PostgreSQL schema holds an older model
    /// (`docs/migration.md`); hooks already set in `options` are kept.
    public convenience init(model: ManagedObjectModel?, storeURL: URL?, options: StoreOptions = StoreOptions(),
                            migration: MigrationPolicy = .automatic) throws {
        let options = options.migrateOnMismatch == nil && options.migrateServerOnMismatch == nil ? migration.applied(to: options) : options
        if let storeURL, PostgreSQLURL.isPostgreSQL(storeURL.absoluteString) {
            try self.init(store: PersistentStore(postgreSQL: PostgreSQLURL(storeURL.absoluteString), model: model, options: options))
            return
        }
        try self.init(store: PersistentStore(url: storeURL, model: model, options: options))
    }

    /// A container over an open store (a Vellum store, or another program's
    /// database opened with `PersistentStore.openAny`).
    public init(store: PersistentStore) throws {
        let options = store.options
        self.store = store
        writeQueue = WriteQueue(store: store)
        viewConnection = Locked(try store.makeReaderConnection())
        let subscription = store.subscribeToSaves { [weak self] event, source in
            self?.didSave(event, from: source)
        }
        shared.withLock { $0.saveSubscription = subscription }
        if !options.inMemory && store.remoteEngine == nil {
            let m = RemoteChangeMonitor(store: store, schemaObservers: schemaObservers) { [weak self] change in self?.didChangeRemotely(change) }
            try m.start()
            shared.withLock { $0.monitor = m }
        } else if let engine = store.remoteEngine as? PGEngine {
            let ownPID = store.withWriter { _ in engine.connection.backendPID }
            let m = PostgreSQLChangeMonitor(store: store, url: engine.connection.url, ownPID: ownPID) { [weak self] change in self?.didChangeRemotely(change) }
            try m.start()
            shared.withLock { $0.serverMonitor = m }
        }
    }

    deinit {
        let (monitor, serverMonitor, saveSubscription) = shared.withLock { ($0.monitor, $0.serverMonitor, $0.saveSubscription) }
        monitor?.stop()
        serverMonitor?.stop()
        if let saveSubscription { store.unsubscribeFromSaves(saveSubscription) }
    }

    // MARK: - Other writers

    /// Who changed the store last from outside this container, and when.
    public var lastRemoteChange: (author: String?, date: Date)? { shared.withLock { $0.lastRemote } }

    /// Calls `body` (on the monitor's queue) for every change made by other writers.
    @discardableResult
    public func observeRemoteChanges(_ body: @escaping @Sendable (RemoteChange) -> Void) -> UUID {
        let id = UUID()
        shared.withLock { $0.remoteObservers[id] = body }
        return id
    }

    public func removeRemoteObserver(_ id: UUID) { shared.withLock { $0.remoteObservers[id] = nil } }

    private func didChangeRemotely(_ change: RemoteChange) {
        let observers: [@Sendable (RemoteChange) -> Void] = shared.withLock { s in
            if case .transactions(let ts) = change, let last = ts.last { s.lastRemote = (last.author, last.timestamp) }
            if case .unknown = change { s.lastRemote = (nil, Date()) }
            return Array(s.remoteObservers.values)
        }
        for o in observers { o(change) }
        guard automaticallyMergesChanges else { return }
        let event: DidSave?
        switch change {
        case .transactions(let ts):
            var merged = DidSave(inserted: [], updated: [], deleted: [], changedKeys: [:], author: ts.last?.author, sequence: ts.last?.token.rawValue ?? 0)
            for t in ts {
                let d = t.asDidSave()
                merged.inserted.formUnion(d.inserted)
                merged.deleted.formUnion(d.deleted)
                merged.updated.formUnion(d.updated)
                for (k, v) in d.changedKeys { merged.changedKeys[k, default: []].formUnion(v) }
            }
            // An object inserted then deleted within the batch is just deleted; updated-then-deleted likewise.
            merged.inserted.subtract(merged.deleted)
            merged.updated.subtract(merged.deleted)
            merged.updated.subtract(merged.inserted)
            event = merged
        case .unknown:
            event = nil
        }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { merge(event) }
        }
    }

    /// Merges into the view context in order (nil: reload what it holds). A merge that
    /// finds the server unreachable (a restart) waits in `mergeBacklog` with the merges after
    /// it and is tried again with backoff (to a second) until the server answers, however
    /// long that takes: no change is skipped for having waited.
    @MainActor private func merge(_ event: DidSave?) {
        mergeBacklog.append(event)
        if mergeBacklog.count == 1 { drainMergeBacklog() }
    }

    @MainActor private func drainMergeBacklog() {
        while let event = mergeBacklog.first {
            guard let context = viewContextStorage else { mergeBacklog.removeAll(); return }
            do {
                if let event { try context.mergeChanges(from: event) } else { try context.refreshAllFromStore() }
            } catch let error as StoreError where error.isServerUnavailable {
                mergeRetries += 1
                let pause = min(1.0, 0.005 * Double(mergeRetries))
                DispatchQueue.main.asyncAfter(deadline: .now() + pause) { [self] in
                    MainActor.assumeIsolated { drainMergeBacklog() }
                }
                return
            } catch {
                mergeErrorHandler?(error)
            }
            mergeRetries = 0
            mergeBacklog.removeFirst()
        }
    }

    // MARK: - View context

    /// The context for the UI, confined to the main actor. Created on first use.
    @MainActor public var viewContext: ManagedObjectContext {
        if let c = viewContextStorage { return c }
        // Its reader connection was opened (and checked) when the container was created;
        // only this getter takes it, once, before it stores the context.
        let c = ManagedObjectContext(store: store, connection: viewConnection.withLock { $0.take() }!)
        c.name = "view"
        c.transactionAuthor = "view"
        c.mergePolicy = shared.withLock { $0.viewContextPolicy }
        viewContextStorage = c
        shared.withLock { $0.viewContextIdentity = ObjectIdentifier(c) }
        return c
    }

    /// Merge saves from the write queue and background contexts into the view context.
    public var automaticallyMergesChanges: Bool {
        get { shared.withLock { $0.automaticMerging } }
        set { shared.withLock { $0.automaticMerging = newValue } }
    }

    /// Called on the main actor when merging a save into the view context fails (e.g. the file became unreadable).
    @MainActor public func onMergeError(_ body: @escaping (Error) -> Void) { mergeErrorHandler = body }

    private func didSave(_ event: DidSave, from source: ObjectIdentifier) {
        let (merging, viewID) = shared.withLock { ($0.automaticMerging, $0.viewContextIdentity) }
        guard merging, let viewID, viewID != source else { return }
        // The main queue is FIFO, so saves merge in commit order.
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated { merge(event) }
        }
    }

    // MARK: - Background work

    /// A private context on its own serial queue (merge policy `error` by default).
    public func newBackgroundContext(mergePolicy: MergePolicy = .error) throws -> BackgroundContext {
        try BackgroundContext(store: store, label: "vellum.background", mergePolicy: mergePolicy)
    }

    /// Runs `block` on the serial write queue with a fresh context, saves it, and
    /// returns the block's value — or throws the block's or the save's error.
    @discardableResult
    public func enqueue<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            writeQueue.enqueue(block) { continuation.resume(with: $0) }
        }
    }

    /// The completion-handler form of `enqueue`; `completion` runs on the write queue.
    public func enqueue<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T,
                                     completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        writeQueue.enqueue(block, completion: completion)
    }

    /// Writes waiting or running on the write queue.
    public var pendingWriteCount: Int { writeQueue.pendingCount }

    /// Calls `body` (from the write queue's thread) whenever the number of pending writes changes.
    @discardableResult
    public func observePendingWrites(_ body: @escaping @Sendable (Int) -> Void) -> UUID { writeQueue.observePending(body) }

    /// The merge policy of write-queue contexts (default `error`).
    public var writeQueueMergePolicy: MergePolicy {
        get { writeQueue.mergePolicy }
        set { writeQueue.mergePolicy = newValue }
    }

    /// The author recorded for write-queue saves.
    public var writeQueueAuthor: String? {
        get { writeQueue.author }
        set { writeQueue.author = newValue }
    }

    // MARK: - Save events

    /// Every save through this container's store, as an async sequence.
    public func saves() -> AsyncStream<DidSave> {
        let (stream, continuation) = AsyncStream<DidSave>.makeStream(bufferingPolicy: .unbounded)
        let id = store.subscribeToSaves { event, _ in continuation.yield(event) }
        continuation.onTermination = { [store] _ in store.unsubscribeFromSaves(id) }
        return stream
    }

    /// Calls `body` after every save through this container's store (from the saving thread).
    @discardableResult
    public func observeSaves(_ body: @escaping @Sendable (DidSave) -> Void) -> UUID {
        store.subscribeToSaves { event, _ in body(event) }
    }
}
