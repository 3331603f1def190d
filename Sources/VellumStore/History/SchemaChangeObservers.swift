import Foundation

/// Who wants to hear of schema changes (called on the monitor's queue). Changes noticed
/// while no one listens (between opening a file and observing it, or by a container that
/// never observes) are kept as two schemas, the one before the first and the one after
/// the last: bounded however many there were, and the first observer hears their net
/// change as it is added (a table created and dropped meanwhile is no change).
final class SchemaChangeObservers: Sendable {
    private struct Unheard {
        var before: [String: TableInfo]
        var after: [String: TableInfo]
    }
    private struct State {
        var observers: [UUID: @Sendable (SchemaChange) -> Void] = [:]
        var unheard: Unheard?
    }
    private let state = Locked(State())

    func add(_ body: @escaping @Sendable (SchemaChange) -> Void) -> UUID {
        let id = UUID()
        let unheard = state.withLock { s in
            s.observers[id] = body
            defer { s.unheard = nil }
            return s.unheard
        }
        if let unheard, let change = SchemaChange.between(unheard.before, unheard.after) { body(change) }
        return id
    }

    func remove(_ id: UUID) { state.withLock { $0.observers[id] = nil } }

    /// The schema went from `old` to `new`; observers hear the difference, if any.
    func notify(from old: [String: TableInfo], to new: [String: TableInfo]) {
        let bodies = state.withLock { s in
            if s.observers.isEmpty { s.unheard = Unheard(before: s.unheard?.before ?? old, after: new) }
            return Array(s.observers.values)
        }
        guard !bodies.isEmpty, let change = SchemaChange.between(old, new) else { return }
        for body in bodies { body(change) }
    }
}
