import Foundation

/// The serial write queue: blocks run one at a time in FIFO order, each on a
/// fresh context that is saved after the block (if it changed anything) and then
/// discarded. A failing block reports its error to its caller, changes nothing,
/// and the next block runs.
final class WriteQueue: @unchecked Sendable {
    private let queue = DispatchQueue(label: "vellum.write-queue")
    private let store: PersistentStore
    private let lock = NSLock()
    private var pending = 0
    private var pendingObservers: [UUID: @Sendable (Int) -> Void] = [:]
    /// One reader connection reused by every write context (opened on the queue).
    private var connection: Connection?
    var mergePolicy: MergePolicy = .error
    var author: String? = "write-queue"

    init(store: PersistentStore) {
        self.store = store
    }

    var pendingCount: Int {
        lock.lock(); defer { lock.unlock() }
        return pending
    }

    func observePending(_ body: @escaping @Sendable (Int) -> Void) -> UUID {
        let id = UUID()
        lock.lock(); pendingObservers[id] = body; lock.unlock()
        return id
    }

    func removeObserver(_ id: UUID) {
        lock.lock(); pendingObservers[id] = nil; lock.unlock()
    }

    private func adjustPending(_ delta: Int) {
        lock.lock()
        pending += delta
        let n = pending
        let observers = Array(pendingObservers.values)
        lock.unlock()
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

    private func run<T>(_ block: (ManagedObjectContext) throws -> T) throws -> T {
        if connection == nil { connection = try store.makeReaderConnection() }
        let context = ManagedObjectContext(store: store, connection: connection!)
        context.mergePolicy = mergePolicy
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
