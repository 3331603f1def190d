import Foundation

/// Saves committed through a store, delivered to every subscriber (the
/// container merges them into the view context). Thread-safe.
final class SaveBroadcast: Sendable {
    private let state = Locked(State())
    private struct State {
        var sequence: Int64 = 0
        var subscribers: [UUID: @Sendable (DidSave, ObjectIdentifier) -> Void] = [:]
    }

    func next() -> Int64 {
        state.withLock { s in
            s.sequence += 1
            return s.sequence
        }
    }

    var current: Int64 { state.withLock { $0.sequence } }

    func subscribe(_ body: @escaping @Sendable (DidSave, ObjectIdentifier) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.subscribers[id] = body }
        return id
    }

    func unsubscribe(_ id: UUID) {
        state.withLock { $0.subscribers[id] = nil }
    }

    func publish(_ event: DidSave, from source: ObjectIdentifier) {
        let targets = state.withLock { Array($0.subscribers.values) }
        for body in targets { body(event, source) }
    }
}

extension PersistentStore {
    var currentSaveSequence: Int64 { broadcast.current }
    func nextSaveSequence() -> Int64 { broadcast.next() }
    /// `source` identifies the saving context (subscribers skip their own saves).
    func publish(_ event: DidSave, from source: ObjectIdentifier) {
        // Inside a write group the save is not committed yet: it is told after the group's COMMIT.
        if group.isOwnedByCurrentThread { group.events.append((event, source)); return }
        broadcast.publish(event, from: source)
    }

    /// Calls `body` after every save through this store, from the saving thread,
    /// with an identifier of the saving context.
    public func subscribeToSaves(_ body: @escaping @Sendable (DidSave, ObjectIdentifier) -> Void) -> UUID {
        broadcast.subscribe(body)
    }

    public func unsubscribeFromSaves(_ id: UUID) { broadcast.unsubscribe(id) }
}
