import Foundation

/// A context confined to its own serial queue. The context itself never leaves
/// the queue: work runs inside `perform`, and only `Sendable` values (object IDs,
/// values) come back out — returning a `ManagedObject` does not compile.
// Unchecked: the (non-Sendable) context is only touched on `queue`.
public final class BackgroundContext: @unchecked Sendable {
    private let queue: DispatchQueue
    private let queueKey = DispatchSpecificKey<UInt8>()
    // Only touched on `queue`.
    nonisolated(unsafe) private let context: ManagedObjectContext
    /// Stops the context's running query from any thread.
    public let queryInterrupter: QueryInterrupter

    init(store: PersistentStore, label: String, mergePolicy: MergePolicy, connection: Connection? = nil) throws {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: queueKey, value: 1)
        context = try connection.map { ManagedObjectContext(store: store, connection: $0) } ?? ManagedObjectContext(store: store)
        context.mergePolicy = mergePolicy
        queryInterrupter = context.queryInterrupter
    }

    /// Runs `body` on the context's queue.
    @discardableResult
    public func perform<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try body(self.context) })
            }
        }
    }

    /// Runs `body` on the context's queue, then `completion` (on that queue) with its result.
    public func perform<T: Sendable>(_ body: @escaping @Sendable (ManagedObjectContext) throws -> T,
                                     completion: @escaping @Sendable (Result<T, Error>) -> Void) {
        queue.async { [self] in completion(Result { try body(self.context) }) }
    }

    /// Runs `body` on the context's queue and waits; reentrant.
    public func performAndWait<T>(_ body: (ManagedObjectContext) throws -> T) rethrows -> T {
        if DispatchQueue.getSpecific(key: queueKey) != nil { return try body(context) }
        return try queue.sync { try body(context) }
    }
}
