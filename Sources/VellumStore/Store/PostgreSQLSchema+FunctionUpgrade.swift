import Foundation

extension PostgreSQLSchema {
    /// Replaces the functions of a store created by an older Vellum (one transaction)
    /// and records the version; functions of a newer Vellum are left alone.
    static func upgradeFunctionsIfOlder(on db: PGConnection, recorded: String?) throws(StoreError) {
        func current(_ text: String?) -> Bool { (text.flatMap { Int($0) } ?? 1) >= PostgreSQLFunctions.version }
        guard !current(recorded) else { return }
        let metadata = PostgreSQLDialect().quote(PersistentStore.metadataTable)
        // Another opener may be upgrading too: under the lock, the second finds it done.
        try withCreationLock(db) { () throws(StoreError) in
            guard try !current(db.scalar("SELECT value FROM \(metadata) WHERE key = $1", [.string(PostgreSQLFunctions.versionKey)])?.stringValue) else { return }
            for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
            try db.query("INSERT INTO \(metadata) (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                         [.string(PostgreSQLFunctions.versionKey), .string(String(PostgreSQLFunctions.version))])
        }
    }
}
