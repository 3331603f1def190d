import Foundation

/// What a database says of one of its tables (`PRAGMA table_list`, `table_info`):
/// enough to decide whether and by which key it can be tracked, and to compare
/// schemas when another program changes them.
struct TableInfo: Sendable, Equatable {
    struct Column: Sendable, Equatable {
        var name: String
        var declaredType: String
        /// Position in the primary key (1-based), 0 when not part of it.
        var primaryKeyPosition: Int
    }

    var name: String
    /// `table`, `view`, `virtual` or `shadow`.
    var type: String
    var withoutRowid: Bool
    var columns: [Column]
    /// The `CREATE` statement as stored in `sqlite_master`.
    var sql: String

    /// Tables and views of the main schema, by name; SQLite's own and Vellum's
    /// (`sqlite_*`, `_vellum_*`) left out.
    static func read(_ db: Connection) throws(StoreError) -> [String: TableInfo] {
        var sqlByName: [String: String] = [:]
        for row in try db.rows("SELECT name, sql FROM sqlite_master WHERE type IN ('table', 'view')") {
            if let name = row[0].stringValue { sqlByName[name] = row[1].stringValue ?? "" }
        }
        var tables: [String: TableInfo] = [:]
        for row in try db.rows("SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main'") {
            guard let name = row[0].stringValue, !isInternal(name) else { continue }
            var columns: [Column] = []
            for c in try db.rows("SELECT name, type, pk FROM pragma_table_info(?, 'main')", [.string(name)]) {
                columns.append(Column(name: c[0].stringValue ?? "", declaredType: c[1].stringValue ?? "",
                                      primaryKeyPosition: Int(c[2].integerValue ?? 0)))
            }
            tables[name] = TableInfo(name: name, type: row[1].stringValue ?? "table", withoutRowid: row[2].integerValue == 1,
                                     columns: columns, sql: sqlByName[name] ?? "")
        }
        return tables
    }

    static func isInternal(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("sqlite_") || lower.hasPrefix("_vellum_")
    }

    /// The `INTEGER PRIMARY KEY` column (an alias of the row id), if the table has one.
    var integerPrimaryKey: String? {
        let key = columns.filter { $0.primaryKeyPosition > 0 }
        guard !withoutRowid, key.count == 1, key[0].declaredType.uppercased() == "INTEGER" else { return nil }
        return key[0].name
    }

    /// The declared primary key's columns, in key order.
    var declaredKey: [String] {
        columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
    }

    /// Why this table cannot be tracked by `key`, or nil when it can.
    func problem(trackingBy key: TrackedKey) -> String? {
        switch type {
        case "view": return "a view (it has no rows of its own to watch)"
        case "virtual": return "a virtual table (SQLite allows no triggers on it)"
        case "shadow": return "a virtual table's shadow table (written by SQLite itself)"
        default: break
        }
        // A declared key other than the INTEGER PRIMARY KEY is what addresses its rows
        // (`ForeignSchema.RowIdentity`), not the rowid.
        let keyed = integerPrimaryKey == nil && !declaredKey.isEmpty
        let hiding = columns.first { ["rowid", "_rowid_", "oid"].contains($0.name.lowercased()) }
        switch key {
        case .rowid:
            if keyed { return "its rows are addressed by their primary key (\(declaredKey.joined(separator: ", "))), not by the row id" }
            if let hiding, integerPrimaryKey == nil { return "its column \(hiding.name) hides the row id" }
            return nil
        case .integerPrimaryKey(let column):
            if integerPrimaryKey == column { return nil }
            guard columns.contains(where: { $0.name == column }) else { return "it has no column \(column)" }
            return "\(column) is not its INTEGER PRIMARY KEY"
        case .primaryKey(let key):
            guard keyed else { return "its rows are addressed by \(integerPrimaryKey.map { "its INTEGER PRIMARY KEY \($0)" } ?? "their row id"), not a declared key" }
            guard key == declaredKey else { return "its primary key is (\(declaredKey.joined(separator: ", "))), not (\(key.joined(separator: ", ")))" }
            // The layout cannot address the rows of a table whose column is named rowid.
            if let hiding, hiding.name.lowercased() == "rowid" { return "its column \(hiding.name) hides the row id" }
            return nil
        }
    }

    /// The key to track it by: its `INTEGER PRIMARY KEY`, else its declared primary key, else the row id.
    var naturalKey: TrackedKey {
        if let column = integerPrimaryKey { return .integerPrimaryKey(column: column) }
        return declaredKey.isEmpty ? .rowid : .primaryKey(columns: declaredKey)
    }
}
