import Foundation

/// The serial write queue: blocks run one at a time in FIFO order, each on a
/// fresh context that is saved after the block (if it changed anything) and then
/// discarded. A failing block reports its error to its caller, changes nothing,
/// and the next block runs. Blocks that wait while another runs are then run as
/// one group commit (`runGroup`); a block that finds the queue idle runs at once.
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
        var waiting: [Job] = []
        /// True while `drain` is scheduled or running.
        var draining = false
    }
    /// At most this many blocks share one transaction (their callers wait for its COMMIT).
    static let largestGroup = 256
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
        let job = Job(perform: { context in
            let value = try block(context)
            if context.hasChanges { try context.save() }
            return { completion(.success(value)) }
        }, fail: { completion(.failure($0)) })
        adjustPending(1)
        let startsDrain = shared.withLock { s in
            s.waiting.append(job)
            if s.draining { return false }
            s.draining = true
            return true
        }
        if startsDrain { queue.async { [self] in drain() } }
    }

    /// Runs what is waiting until nothing is: one block alone at once (a lone write
    /// waits for no company), several that piled up meanwhile as one group.
    private func drain() {
        while true {
            let batch: [Job] = shared.withLock { s in
                if s.waiting.isEmpty {
                    s.draining = false
                    return []
                }
                let n = min(s.waiting.count, Self.largestGroup)
                let batch = Array(s.waiting[..<n])
                s.waiting.removeFirst(n)
                return batch
            }
            if batch.isEmpty { return }
            if batch.count == 1 { runAlone(batch[0]) } else { runGroup(batch) }
        }
    }

    private func settings() -> (MergePolicy, String?) {
        shared.withLock { ($0.mergePolicy, $0.author) }
    }

    private func makeContext(_ connection: Connection) -> ManagedObjectContext {
        let (policy, author) = settings()
        let context = ManagedObjectContext(store: store, connection: connection)
        context.mergePolicy = policy
        context.transactionAuthor = author
        context.retriesServerConflicts = false
        return context
    }

    /// A block on a context of the queue's reader connection, saved in its own transaction.
    /// A server's serialization failure or deadlock runs it again on a fresh context
    /// (`ServerConflictRetry`), a bounded number of times.
    private func runAlone(_ job: Job) {
        let outcome = ServerConflictRetry.run { () throws -> @Sendable () -> Void in
            try connection.withLock { connection in
                if connection == nil { connection = try store.makeReaderConnection() }
                let context = makeContext(connection!)
                defer { context.discard() }
                return try job.perform(context)
            }
        }
        adjustPending(-1)
        job.finish(outcome)
    }

    /// Blocks in one transaction (begun at the first write), each in its own savepoint;
    /// the store's writer lock is held throughout. Each context reads through
    /// the writer connection, so a block sees what the blocks before it wrote.
    /// Completions run after the shared COMMIT, in order.
    private func runGroup(_ jobs: [Job]) {
        var outcomes: [Result<@Sendable () -> Void, any Error>] = []
        outcomes.reserveCapacity(jobs.count)
        do {
            try store.writeGroup { writer in
                for job in jobs {
                    let context = makeContext(writer)
                    outcomes.append(Result {
                        try store.groupBlock { try job.perform(context) }
                    })
                    context.discard()
                }
            }
        } catch {
            // Nothing was committed: a block that succeeded gets the group's error.
            outcomes = jobs.indices.map { i in
                if i < outcomes.count, case .failure = outcomes[i] { return outcomes[i] }
                return .failure(error)
            }
        }
        for (job, outcome) in zip(jobs, outcomes) {
            // Lost to a server's deadlock or serialization failure: run again alone (retried).
            if case .failure(let error) = outcome, ServerConflictRetry.isTransient(error) { runAlone(job); continue }
            adjustPending(-1)
            job.finish(outcome)
        }
    }
}

/// A queued block, its type erased: `perform` runs it and saves, returning what
/// hands its value to the caller; `fail` hands the caller an error.
private struct Job: Sendable {
    let perform: @Sendable (ManagedObjectContext) throws -> @Sendable () -> Void
    let fail: @Sendable (any Error) -> Void

    func finish(_ outcome: Result<@Sendable () -> Void, any Error>) {
        switch outcome {
        case .success(let deliver): deliver()
        case .failure(let error): fail(error)
        }
    }
}
