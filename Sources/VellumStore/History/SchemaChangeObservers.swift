import Foundation

/// Who wants to hear of schema changes (called on the monitor's queue). A change noticed
/// while no one listens (between opening a file and observing it) is kept for the first
/// observer, who hears it as it is added.
final class SchemaChangeObservers: Sendable {
    private struct State {
        var observers: [UUID: @Sendable (SchemaChange) -> Void] = [:]
        var unheard: [SchemaChange] = []
    }
    private let state = Locked(State())

    func add(_ body: @escaping @Sendable (SchemaChange) -> Void) -> UUID {
        let id = UUID()
        let unheard = state.withLock { s in
            s.observers[id] = body
            defer { s.unheard = [] }
            return s.unheard
        }
        for change in unheard { body(change) }
        return id
    }

    func remove(_ id: UUID) { state.withLock { $0.observers[id] = nil } }

    func notify(_ change: SchemaChange) {
        let bodies = state.withLock { s in
            if s.observers.isEmpty { s.unheard.append(change) }
            return Array(s.observers.values)
        }
        for body in bodies { body(change) }
    }
}
