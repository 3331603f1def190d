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
}
