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

    /// Notes the schema to compare with (at start): the one another program's database was
    /// opened with, where the store read it — a change committed since is reported at once,
    /// to the first observer (`SchemaChangeObservers`) — else the schema as it is now.
    func readSchema(_ c: Connection) {
        guard schemaObservers != nil else { return }
        if let opened = store.openedSchema {
            schema = SchemaState(version: opened.version, tables: opened.tables)
            checkSchema(c)
            return
        }
        schema.version = (try? c.scalarInt("PRAGMA schema_version")) ?? 0
        schema.tables = (try? TableInfo.read(c)) ?? [:]
    }

    func checkSchema(_ c: Connection) {
        guard let schemaObservers, let version = try? c.scalarInt("PRAGMA schema_version"), version != schema.version else { return }
        guard let tables = try? TableInfo.read(c) else { return }  // unreadable now: the next commit tries again
        let old = schema.tables
        schema = SchemaState(version: version, tables: tables)
        schemaObservers.notify(from: old, to: tables)
    }
}
