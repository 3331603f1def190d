import Foundation

/// Saves committed through a store, delivered to every subscriber (the
/// container merges them into the view context). Thread-safe.
final class SaveBroadcast: @unchecked Sendable {
    private let lock = NSLock()
    private var sequence: Int64 = 0
    private var subscribers: [UUID: @Sendable (DidSave, ObjectIdentifier) -> Void] = [:]

    func next() -> Int64 {
        lock.lock(); defer { lock.unlock() }
        sequence += 1
        return sequence
    }

    var current: Int64 {
        lock.lock(); defer { lock.unlock() }
        return sequence
    }

    func subscribe(_ body: @escaping @Sendable (DidSave, ObjectIdentifier) -> Void) -> UUID {
        let id = UUID()
        lock.lock(); subscribers[id] = body; lock.unlock()
        return id
    }

    func unsubscribe(_ id: UUID) {
        lock.lock(); subscribers[id] = nil; lock.unlock()
    }

    func publish(_ event: DidSave, from source: ObjectIdentifier) {
        lock.lock()
        let targets = Array(subscribers.values)
        lock.unlock()
        for body in targets { body(event, source) }
    }
}

extension PersistentStore {
    var currentSaveSequence: Int64 { broadcast.current }
    func nextSaveSequence() -> Int64 { broadcast.next() }
    /// `source` identifies the saving context (subscribers skip their own saves).
    func publish(_ event: DidSave, from source: ObjectIdentifier) {
        broadcast.publish(event, from: source)
    }

    /// Calls `body` after every save through this store, from the saving thread,
    /// with an identifier of the saving context.
    public func subscribeToSaves(_ body: @escaping @Sendable (DidSave, ObjectIdentifier) -> Void) -> UUID {
        broadcast.subscribe(body)
    }

    public func unsubscribeFromSaves(_ id: UUID) { broadcast.unsubscribe(id) }
}
