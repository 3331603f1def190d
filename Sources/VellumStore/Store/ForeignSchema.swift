import Foundation

/// The schema of a SQLite database Vellum did not create, as SQLite reports it
/// (`sqlite_master` and the table-valued pragmas): read once when it is opened,
/// never changed.
public struct ForeignSchema: Sendable, Hashable {
    public struct Column: Sendable, Hashable {
        public var name: String
        /// As declared (`NVARCHAR(160)`), empty when none.
        public var declaredType: String
        public var notNull: Bool
        /// The DEFAULT clause's SQL text, when there is one.
        public var defaultSQL: String?
        /// 1-based position in the primary key, 0 when not part of it.
        public var primaryKeyPosition: Int
    }

    public struct ForeignKey: Sendable, Hashable {
        /// The referenced table.
        public var table: String
        public var from: [String]
        /// The referenced columns; nil entries stand for the referenced table's primary key.
        public var to: [String?]
        public var onDelete: String
    }

    public struct Table: Sendable, Hashable {
        public var name: String
        public var isView: Bool
        public var withoutRowID: Bool
        public var autoincrement: Bool
        public var columns: [Column]
        public var foreignKeys: [ForeignKey]
        /// Column sets that UNIQUE constraints and unique indexes keep unique (primary key excluded).
        public var uniqueColumnSets: [[String]]
        /// The CREATE statement, as stored.
        public var sql: String

        /// The primary key's columns, in key order.
        public var primaryKey: [String] {
            columns.filter { $0.primaryKeyPosition > 0 }.sorted { $0.primaryKeyPosition < $1.primaryKeyPosition }.map(\.name)
        }

        /// The column that is an alias of the rowid (`INTEGER PRIMARY KEY`), if any.
        public var integerPrimaryKey: String? {
            guard !isView, !withoutRowID, primaryKey.count == 1,
                  let c = columns.first(where: { $0.primaryKeyPosition == 1 }), c.declaredType.uppercased() == "INTEGER" else { return nil }
            return c.name
        }

        /// True when rows have a rowid that can address them.
        public var hasRowID: Bool { !isView && !withoutRowID }

        /// How rows are told apart (`RowIdentity`); nil when they cannot be, with
        /// `unaddressableReason` saying why. A declared primary key is the identity
        /// wherever there is one (it survives `VACUUM`, a rowid need not): the rowid only
        /// where it is the `INTEGER PRIMARY KEY`, or where the table declares no key at all
        /// (then it is read-only, `readOnlyReason`).
        public var identity: RowIdentity? {
            if let c = column(named: "rowid"), c.name != integerPrimaryKey { return nil }
            if isView { return columns.isEmpty ? nil : .rowDigest(columns.map(\.name)) }
            if integerPrimaryKey != nil { return .rowid }
            let key = primaryKey
            if key.isEmpty { return hasRowID ? .rowid : nil }
            if key.count == 1, let c = column(named: key[0]), c.declaredType.uppercased().contains("INT") { return .keyColumn(c.name) }
            return .keyDigest(key)
        }

        public var unaddressableReason: String? {
            guard identity == nil else { return nil }
            let kind = isView ? "a view" : withoutRowID ? "a WITHOUT ROWID table" : "a table"
            return "\(kind) with a column named rowid: its rows have no key to address them by"
        }

        /// Why rows of this table or view cannot be added, changed or deleted, or nil.
        public var readOnlyReason: String? {
            if isView { return "\(name) is a view: its rows cannot be added, changed or deleted here (change the tables it reads from)" }
            guard identity == .rowid, integerPrimaryKey == nil else { return nil }
            return "\(name) has no primary key: its rows are known only by their rowid, which VACUUM may renumber, so they cannot be added, changed or deleted here (give the table a PRIMARY KEY to edit it)"
        }

        public func column(named name: String) -> Column? {
            columns.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        }
    }

    /// How the rows of a table or view are addressed: the integer that is each
    /// row's object ID key (`ForeignLayout` reads it as `rowid` through a
    /// per-connection TEMP view where the table has no rowid).
    public enum RowIdentity: Sendable, Hashable {
        /// The rowid (an `INTEGER PRIMARY KEY` where there is one).
        case rowid
        /// A table's one integer primary-key column that is not the rowid (`INT PRIMARY KEY`,
        /// a `WITHOUT ROWID` table's integer key).
        case keyColumn(String)
        /// A digest of a table's primary-key columns (text or composite keys), rowid table or not.
        case keyDigest([String])
        /// A view's rows (read-only): a digest of all its columns and the row's
        /// number among equal rows.
        case rowDigest([String])
    }

    /// Tables and views, sorted by name; SQLite's own (`sqlite_*`) and Vellum's own
    /// (`_vellum_*`: the history `vellum track` adds) left out.
    public var tables: [Table]

    public func table(named name: String) -> Table? {
        tables.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Reads the schema through `connection` (reads only).
    public static func read(_ connection: Connection) throws(StoreError) -> ForeignSchema {
        var tables: [Table] = []
        let objects = try connection.rows(
            "SELECT type, name, coalesce(sql, '') FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_vellum\\_%' ESCAPE '\\' ORDER BY name")
        for row in objects {
            guard let type = row[0].stringValue, let name = row[1].stringValue else { continue }
            let sql = row[2].stringValue ?? ""
            let normalized = sql.uppercased().filter { !$0.isWhitespace }
            var columns: [Column] = []
            for c in try connection.rows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?, 'main')", [.string(name)]) {
                columns.append(Column(name: c[0].stringValue ?? "", declaredType: c[1].stringValue ?? "", notNull: c[2].integerValue == 1,
                                      defaultSQL: c[3].stringValue ?? c[3].integerValue.map(String.init), primaryKeyPosition: Int(c[4].integerValue ?? 0)))
            }
            var keys: [Int64: ForeignKey] = [:]
            for k in try connection.rows("SELECT id, \"table\", \"from\", \"to\", on_delete FROM pragma_foreign_key_list(?, 'main') ORDER BY id, seq", [.string(name)]) {
                let id = k[0].integerValue ?? 0
                var key = keys[id] ?? ForeignKey(table: k[1].stringValue ?? "", from: [], to: [], onDelete: k[4].stringValue ?? "NO ACTION")
                key.from.append(k[2].stringValue ?? "")
                key.to.append(k[3].stringValue)
                keys[id] = key
            }
            var unique: [[String]] = []
            for index in try connection.rows("SELECT name, origin FROM pragma_index_list(?, 'main') WHERE \"unique\" = 1 AND partial = 0", [.string(name)]) {
                guard let indexName = index[0].stringValue, index[1].stringValue != "pk" else { continue }
                let names = try connection.rows("SELECT name FROM pragma_index_info(?, 'main') ORDER BY seqno", [.string(indexName)]).compactMap { $0[0].stringValue }
                if names.count == names.filter({ !$0.isEmpty }).count, !names.isEmpty { unique.append(names) }
            }
            tables.append(Table(name: name, isView: type == "view", withoutRowID: normalized.split(separator: ")").last?.contains("WITHOUTROWID") == true,
                                autoincrement: normalized.contains("AUTOINCREMENT"), columns: columns,
                                foreignKeys: keys.keys.sorted().map { keys[$0]! }, uniqueColumnSets: unique, sql: sql))
        }
        return ForeignSchema(tables: tables)
    }
}
