import Foundation

extension PersistentContainer {
    /// Calls `body` (on the monitor's queue) when another program adds or drops a
    /// table or column of the open file (see `SchemaChange`). An in-memory store
    /// has no monitor and reports none.
    @discardableResult
    public func observeSchemaChanges(_ body: @escaping @Sendable (SchemaChange) -> Void) -> UUID {
        schemaObservers.add(body)
    }

    public func removeSchemaObserver(_ id: UUID) { schemaObservers.remove(id) }
}
