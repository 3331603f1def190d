import Foundation
import VellumStore

/// Another program's database changes its schema while the browser shows it
/// (a table or column added or dropped, e.g. from the sqlite3 shell): the model
/// inferred at opening no longer fits, so the browser opens the file again with
/// the model inferred anew and says what changed, instead of failing on the
/// next query.
enum SchemaReopen {
    /// Opens `path` (any SQLite database, a Vellum store or a server URL) as the browser does.
    /// `model`: the mapping (`--model`) another program's database is read with; nil infers it.
    static func open(_ path: String, options: StoreOptions, model: ManagedObjectModel? = nil) throws -> PersistentContainer {
        try PersistentContainer(store: PersistentStore.open(location: path, model: model, options: options))
    }

    /// Ends `loop` when the schema of `container`'s file changes; nil for stores
    /// whose model is not inferred from their schema.
    @MainActor
    static func observe(_ container: PersistentContainer, loop: EventLoop) -> UUID? {
        guard container.store.layout is ForeignLayout else { return nil }
        return container.observeSchemaChanges { change in
            let summary = change.summary
            Task { @MainActor in loop.schemaChange = summary }
        }
    }

    static func waitingStatus(_ summary: String) -> String {
        // What to do first: the status line may be cut at 80 columns.
        "when this edit ends, the file is opened again: its schema changed (\(summary))"
    }

    static func status(_ summary: String) -> String {
        "schema changed: \(summary); the model was inferred again"
    }
}
