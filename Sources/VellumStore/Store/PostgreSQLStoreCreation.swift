import Foundation

extension PostgreSQLSchema {
    /// Creates a store of `layout`'s model in the schema the connection's URL names
    /// (creating the schema if needed), in one transaction: the metadata table
    /// (format, model and its hash), the `vellum_*` functions, the tables, and unless
    /// `history` is false the history tables and triggers (`PostgreSQLHistorySchema`).
    /// A schema that already holds a store is refused and left as it is.
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
        try db.execute("BEGIN")
        do throws(StoreError) {
            try db.execute("CREATE SCHEMA IF NOT EXISTS \(d.quote(schema))")
            let exists = try db.scalar("SELECT to_regclass(quote_ident($1) || '.' || quote_ident($2)) IS NOT NULL",
                                       [.string(schema), .string(PersistentStore.metadataTable)])
            if exists == .bool(true) { throw .fileExists(path: db.url.description) }
            try db.execute("SET LOCAL search_path TO \(d.quote(schema))")
            try db.execute("CREATE TABLE \(metadata) (key text COLLATE \"C\" PRIMARY KEY, value text NOT NULL)")
            let rows: [(String, String)] = [
                ("uuid", uuid), ("format", PersistentStore.formatVersion), ("modelHash", layout.model.versionHash),
                ("model", String(decoding: layout.model.jsonData(), as: UTF8.self)), ("created", Value.iso8601(Date())),
            ]
            for (k, v) in rows { try db.query("INSERT INTO \(metadata) (key, value) VALUES ($1, $2)", [.string(k), .string(v)]) }
            for statement in layout.schemaSQL() { try db.execute(statement) }
            if history { for statement in PostgreSQLHistorySchema.schemaSQL(layout: layout) { try db.execute(statement) } }
            try db.execute("COMMIT")
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
