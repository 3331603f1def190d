import Foundation

extension PersistentStore {
    /// A store named as a user types it: a `postgresql://` URL (`docs/postgresql.md`)
    /// or a file path (a Vellum store or another program's SQLite database, `openAny`).
    public static func open(location: String, model: ManagedObjectModel?, options: StoreOptions) throws(StoreError) -> PersistentStore {
        if PostgreSQLURL.isPostgreSQL(location) {
            return try PersistentStore(postgreSQL: PostgreSQLURL(location), model: model, options: options)
        }
        return try openAny(url: URL(fileURLWithPath: location), model: model, options: options)
    }

    /// True for a location that names a server store rather than a file.
    public static func isServerLocation(_ location: String) -> Bool { PostgreSQLURL.isPostgreSQL(location) }
}
