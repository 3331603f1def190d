import Foundation

extension PostgreSQLSchema {
    /// Creates a store of `layout`'s model in the schema the connection's URL names
    /// (creating the schema if needed), in one transaction: the metadata table
    /// (format, model and its hash), the `vellum_*` functions, the tables, and unless
    /// `history` is false the history tables and triggers (`PostgreSQLHistorySchema`).
    /// A schema that already holds a store is refused and left as it is (`fileExists`).
    /// First opens of one schema from several processes at once take turns
    /// (`withCreationLock`): one creates the store, the others find it.
    public static func createStore(on db: PGConnection, layout: PostgreSQLLayout, uuid: String = UUID().uuidString, history: Bool = true) throws(StoreError) {
        let d = PostgreSQLDialect()
        guard let schema = db.url.schema else {
            throw .invalidOperation("\(db.url): name the schema to create the store in (?schema=name)")
        }
        let encoding = try db.scalar("SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database()")
        guard encoding == .string("UTF8") else {
            throw .invalidOperation("\(db.url): the database's encoding is \(encoding?.stringValue ?? "unknown"); Vellum stores need UTF8 (CREATE DATABASE … ENCODING 'UTF8')")
        }
        let metadata = d.quote(PersistentStore.metadataTable)
        try withCreationLock(db) { () throws(StoreError) in
            try db.execute("CREATE SCHEMA IF NOT EXISTS \(d.quote(schema))")
            let exists = try db.scalar("SELECT \(inCatalog(relation: "$2", schema: "$1"))",
                                       [.string(schema), .string(PersistentStore.metadataTable)])
            if exists == .bool(true) { throw .fileExists(path: db.url.description) }
            try db.execute("SET LOCAL search_path TO \(d.quote(schema))")
            try db.execute("CREATE TABLE \(metadata) (key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)")
            let rows: [(String, String)] = [
                ("uuid", uuid), ("format", PersistentStore.formatVersion), ("modelHash", layout.model.versionHash),
                ("model", String(decoding: layout.model.jsonData(), as: UTF8.self)), ("created", Value.iso8601(Date())),
                (PostgreSQLFunctions.versionKey, String(PostgreSQLFunctions.version)),
            ]
            for (k, v) in rows { try db.query("INSERT INTO \(metadata) (key, value) VALUES ($1, $2)", [.string(k), .string(v)]) }
            for statement in layout.schemaSQL() { try db.execute(statement) }
            if history { for statement in PostgreSQLHistorySchema.schemaSQL(layout: layout) { try db.execute(statement) } }
        }
    }

    /// SQL that is true when `schema` (an SQL expression: a parameter, or the
    /// connection's `current_schema()`) holds the table `relation` (or the function
    /// `function`). It reads the catalogs with the statement's snapshot: `to_regclass`
    /// and `to_regproc` go through the backend's catalog cache, which waiting for an
    /// advisory lock does not refresh, so under `withCreationLock` they could miss what
    /// the creator before had just committed (a second history install failed so).
    static func inCatalog(relation: String? = nil, function: String? = nil, schema: String = "current_schema()") -> String {
        if let function {
            return "EXISTS (SELECT 1 FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = \(schema) AND p.proname = \(function))"
        }
        return "EXISTS (SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(schema) AND c.relname = \(relation ?? "NULL"))"
    }

    /// Runs `body` in one transaction holding the schema's creation lock (a
    /// transaction-level advisory lock on the database and schema names). PostgreSQL's
    /// `CREATE … IF NOT EXISTS` is not safe against a concurrent creator (two first opens
    /// failed with a duplicate `pg_type` row); under the lock, each creator or upgrader
    /// finds what the one before it committed. Rolled back when `body` throws.
    static func withCreationLock<T>(_ db: PGConnection, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try db.execute("BEGIN")
        do throws(StoreError) {
            _ = try db.scalar("SELECT 1 FROM pg_advisory_xact_lock(hashtextextended('vellum store ' || current_database() || '.' || $1, 0))",
                              [.string(db.url.schema ?? "")])
            let value = try body()
            try db.execute("COMMIT")
            return value
        } catch {
            try? db.execute("ROLLBACK")
            throw error
        }
    }

    /// The metadata of the store in the connection's schema.
    public static func metadata(_ db: PGConnection) throws(StoreError) -> [String: String] {
        var meta: [String: String] = [:]
        for row in try db.rows("SELECT key, value FROM \(PostgreSQLDialect().quote(PersistentStore.metadataTable))") {
            if let k = row[0].stringValue, let v = row[1].stringValue { meta[k] = v }
        }
        return meta
    }
}
