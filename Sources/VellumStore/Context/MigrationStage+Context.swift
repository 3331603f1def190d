import Foundation

extension MigrationStage {
    /// A custom stage on managed objects: `before` gets a context of the store in the old
    /// model's shape (before the schema step), `after` one in the new model's shape.
    /// Both contexts read and write through the migration's connection, inside its one
    /// transaction: fetches see what the migration has done so far, each save is a
    /// savepoint of it (validated as any save), and the context is saved once more when
    /// the closure returns. A closure that throws rolls the whole migration back. The
    /// context and its store are valid only during the closure.
    public static func withContext(_ name: String, before: (@Sendable (ManagedObjectContext) throws -> Void)? = nil,
                                   after: (@Sendable (ManagedObjectContext) throws -> Void)? = nil) -> MigrationStage {
        MigrationStage(name, before: before.map(onContext), after: after.map(onContext))
    }

    private static func onContext(_ body: @escaping @Sendable (ManagedObjectContext) throws -> Void) -> @Sendable (MigrationStageContext) throws -> Void {
        { stage in
            let store = try stage.store()
            try store.joiningOpenTransaction { writer in
                let context = ManagedObjectContext(store: store, connection: writer)
                defer { context.discard() }
                try body(context)
                if context.hasChanges { _ = try context.save() }
            }
        }
    }
}
