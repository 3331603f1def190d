import Foundation

/// The serial write queue: blocks run one at a time in FIFO order, each on a
/// fresh context that is saved after the block (if it changed anything) and then
/// discarded. A failing block reports its error to its caller, changes nothing,
/// and the next block runs.
final class WriteQueue: Sendable {
    private let queue = DispatchQueue(label: "vellum.write-queue")
    private let store: PersistentStore
    /// What any thread reads and changes: the pending count and its observers, and
    /// the settings the container changes while the queue reads them for each block.
    private let shared = Locked(Shared())
    private struct Shared {
        var pending = 0
        var pendingObservers: [UUID: @Sendable (Int) -> Void] = [:]
        var mergePolicy: MergePolicy = .error
        var author: String? = "write-queue"
    }
    /// One reader connection reused by every write context, opened and used on the
    /// queue (the lock is never contended; it lets the compiler check the sharing).
    private let connection = Locked<Connection?>(nil)

    init(store: PersistentStore) {
        self.store = store
    }

    var pendingCount: Int { shared.withLock { $0.pending } }

    var mergePolicy: MergePolicy {
        get { shared.withLock { $0.mergePolicy } }
        set { shared.withLock { $0.mergePolicy = newValue } }
    }

    var author: String? {
        get { shared.withLock { $0.author } }
        set { shared.withLock { $0.author = newValue } }
    }

    func observePending(_ body: @escaping @Sendable (Int) -> Void) -> UUID {
        let id = UUID()
        shared.withLock { $0.pendingObservers[id] = body }
        return id
    }

    func removeObserver(_ id: UUID) {
        shared.withLock { $0.pendingObservers[id] = nil }
    }

    private func adjustPending(_ delta: Int) {
        let (n, observers) = shared.withLock { s in
            s.pending += delta
            return (s.pending, Array(s.pendingObservers.values))
        }
        for o in observers { o(n) }
    }

    func enqueue<T: Sendable>(_ block: @escaping @Sendable (ManagedObjectContext) throws -> T,
                              completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        adjustPending(1)
        queue.async { [self] in
            let result = Result { try run(block) }
            adjustPending(-1)
            completion(result)
        }
    }

    private func run<T: Sendable>(_ block: @Sendable (ManagedObjectContext) throws -> T) throws -> T {
        let (policy, author) = shared.withLock { ($0.mergePolicy, $0.author) }
        return try connection.withLock { connection in
            if connection == nil { connection = try store.makeReaderConnection() }
            let context = ManagedObjectContext(store: store, connection: connection!)
            context.mergePolicy = policy
            context.transactionAuthor = author
            do {
                let value = try block(context)
                if context.hasChanges { try context.save() }
                context.discard()
                return value
            } catch {
                context.discard()
                throw error
            }
        }
    }
}
