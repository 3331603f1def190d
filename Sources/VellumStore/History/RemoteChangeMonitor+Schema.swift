import Foundation

/// Schema changes by other programs: `PRAGMA schema_version` moves with every
/// `CREATE`/`ALTER`/`DROP`; when it did, the tables and columns are read again
/// and compared, and a difference is announced as a `SchemaChange`. Checked only
/// after `data_version` moved (a schema change is a commit), on the monitor's queue.
extension RemoteChangeMonitor {
    struct SchemaState {
        var version: Int64 = 0
        var tables: [String: TableInfo] = [:]
    }

    /// Notes the schema as it is now (at start, before any change is reported).
    func readSchema(_ c: Connection) {
        guard schemaObservers != nil else { return }
        schema.version = (try? c.scalarInt("PRAGMA schema_version")) ?? 0
        schema.tables = (try? TableInfo.read(c)) ?? [:]
    }

    func checkSchema(_ c: Connection) {
        guard let schemaObservers, let version = try? c.scalarInt("PRAGMA schema_version"), version != schema.version else { return }
        guard let tables = try? TableInfo.read(c) else { return }  // unreadable now: the next commit tries again
        let old = schema.tables
        schema = SchemaState(version: version, tables: tables)
        if let change = SchemaChange.between(old, tables) { schemaObservers.notify(change) }
    }
}
