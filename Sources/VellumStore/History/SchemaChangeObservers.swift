import Foundation

/// Who wants to hear of schema changes (called on the monitor's queue).
final class SchemaChangeObservers: Sendable {
    private let observers = Locked<[UUID: @Sendable (SchemaChange) -> Void]>([:])

    func add(_ body: @escaping @Sendable (SchemaChange) -> Void) -> UUID {
        let id = UUID()
        observers.withLock { $0[id] = body }
        return id
    }

    func remove(_ id: UUID) { observers.withLock { $0[id] = nil } }

    func notify(_ change: SchemaChange) {
        for body in observers.withLock({ Array($0.values) }) { body(change) }
    }
}
