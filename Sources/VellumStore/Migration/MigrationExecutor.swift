import Foundation

/// How far a running migration is: rows copied of the rows to copy.
public struct MigrationProgress: Sendable {
    public var rowsDone: Int
    public var rowsTotal: Int
    public var table: String

    public init(rowsDone: Int, rowsTotal: Int, table: String) {
        self.rowsDone = rowsDone
        self.rowsTotal = rowsTotal
        self.table = table
    }
}

/// The schema step of a migration, inside the caller's transaction on a connection
/// with foreign keys off (SQLite's documented way to rebuild a table): tables that
/// only gain columns are altered in place; the others are built beside the old ones
/// as `_vellum_new_<table>`, filled, and swapped in after the old ones are dropped.
struct MigrationExecutor {
    let design: MigrationDesign
    let connection: Connection
    let totalRows: Int
    let progress: (MigrationProgress) -> Void
    /// Keys copied per statement, so that progress moves on large tables.
    static let chunk: Int64 = 100_000

    private var c: Connection { connection }
    private var newLayout: any StoreLayout { design.newLayout }
    private var pk: String { quoteIdentifier(newLayout.primaryKeyColumn) }
    private static let stagingPrefix = "_vellum_new_"

    func run() throws(StoreError) {
        let sequences = try oldSequences()
        for row in try c.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
                              [.integer(Int64(HistorySchema.triggerPrefix.utf8.count)), .string(HistorySchema.triggerPrefix)]) {
            if let name = row[0].stringValue { try c.execute("DROP TRIGGER \(quoteIdentifier(name))") }
        }
        try alterInPlace()
        let rebuiltRoots = design.roots.filter { $0.value == .rebuild }.keys.sorted()
        let rebuiltJoins = design.joins.filter { $0.value == .rebuild }.keys.sorted()
        var done = 0
        for table in rebuiltRoots {
            try createStaging(table)
            for copy in design.copies[table] ?? [] { try fill(table, copy, done: &done) }
        }
        for table in rebuiltJoins {
            try createStaging(table)
            try fillJoin(newLayout.joinTable(named: table)!, rebuiltRoots: Set(rebuiltRoots))
        }
        let kept = Set(design.roots.filter { $0.value != .rebuild }.keys).union(design.joins.filter { $0.value != .rebuild }.keys)
        for table in design.oldSchema.tables.keys.sorted() where !kept.contains(table) {
            try c.execute("DROP TABLE \(quoteIdentifier(table))")
        }
        for table in rebuiltRoots + rebuiltJoins {
            try c.execute("ALTER TABLE \(quoteIdentifier(Self.stagingPrefix + table)) RENAME TO \(quoteIdentifier(table))")
            for (_, sql) in design.newSchema.indexes(of: table).sorted(by: { $0.key < $1.key }) { try c.execute(sql) }
        }
        try restoreSequences(sequences, rebuilt: rebuiltRoots)
        for table in rebuiltRoots + rebuiltJoins {
            let broken = try c.rows("PRAGMA foreign_key_check(\(quoteIdentifier(table)))")
            if !broken.isEmpty {
                throw .invalidOperation("\(table): \(broken.count) row\(broken.count == 1 ? "" : "s") would refer to rows that the migration does not keep (\(broken.prefix(3).compactMap { $0[2].stringValue }.joined(separator: ", "))); nothing was changed")
            }
        }
        if try c.tableExists(HistorySchema.changes) {
            for statement in HistorySchema.triggersSQL(layout: newLayout) { try c.execute(statement) }
        }
        progress(MigrationProgress(rowsDone: totalRows, rowsTotal: totalRows, table: ""))
    }

    /// Tables that only gain columns: ADD COLUMN, constants written where needed, indexes changed.
    private func alterInPlace() throws(StoreError) {
        for (table, strategy) in design.roots.sorted(by: { $0.key < $1.key }) where strategy == .alter {
            for definition in design.addedColumns[table] ?? [] {
                try c.execute("ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(definition)")
            }
            for copy in design.copies[table] ?? [] {
                for (column, source) in copy.columns {
                    let kind = "\(quoteIdentifier(newLayout.entityColumn)) = ?"
                    switch source {
                    case .constant(let v):
                        try c.run("UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = ? WHERE \(kind)", [v, .string(copy.newEntity)])
                    case .coalesce(_, let v):
                        try c.run("UPDATE \(quoteIdentifier(table)) SET \(quoteIdentifier(column)) = ? WHERE \(quoteIdentifier(column)) IS NULL AND \(kind)", [v, .string(copy.newEntity)])
                    default: break
                    }
                }
            }
            let old = design.oldSchema.indexes(of: table)
            let new = design.newSchema.indexes(of: table)
            for (name, sql) in old.sorted(by: { $0.key < $1.key }) where new[name] != sql { try c.execute("DROP INDEX \(quoteIdentifier(name))") }
            for (name, sql) in new.sorted(by: { $0.key < $1.key }) where old[name] != sql { try c.execute(sql) }
        }
    }

    private func createStaging(_ table: String) throws(StoreError) {
        let head = "CREATE TABLE \(quoteIdentifier(table))"
        guard let sql = design.newSchema.tables[table], sql.hasPrefix(head) else {
            throw .invalidOperation("migration: the new schema has no table \(table)")
        }
        try c.execute("CREATE TABLE \(quoteIdentifier(Self.stagingPrefix + table))" + sql.dropFirst(head.count))
    }

    /// Copies one entity's rows, a range of keys at a time, then converts the columns whose type changed.
    private func fill(_ table: String, _ copy: EntityCopy, done: inout Int) throws(StoreError) {
        let oldTable = quoteIdentifier(copy.oldTable)
        let kind = quoteIdentifier(design.oldLayout.entityColumn)
        let version = quoteIdentifier(design.oldLayout.versionColumn)
        let oldPK = quoteIdentifier(design.oldLayout.primaryKeyColumn)
        let dialect = design.oldLayout.dialect
        func p(_ n: Int) -> String { dialect.placeholder(n) }
        var values: [Value] = [.string(copy.newEntity)]
        let shifts = design.sources.shifts
        var selects = [shifts.shifted("s.\(oldPK)", oldTable: copy.oldTable), p(1), "s.\(version)"]
        for (_, source) in copy.columns {
            switch source {
            case .column(let old): selects.append("s.\(quoteIdentifier(old))")
            case .null, .converted: selects.append("NULL")
            case .constant(let v):
                values.append(v)
                selects.append(p(values.count))
            case .coalesce(let old, let v):
                values.append(v)
                selects.append("coalesce(s.\(quoteIdentifier(old)), \(p(values.count)))")
            case .expression(let e): selects.append(e)
            }
        }
        let columns = ([newLayout.primaryKeyColumn, newLayout.entityColumn, newLayout.versionColumn] + copy.columns.map(\.column)).map(quoteIdentifier)
        values.append(.string(copy.oldEntity))
        let filter = "s.\(kind) = \(p(values.count)) AND s.\(oldPK) > \(p(values.count + 1)) AND s.\(oldPK) <= \(p(values.count + 2))"
        let insert = "INSERT INTO \(quoteIdentifier(Self.stagingPrefix + table)) (\(columns.joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM \(oldTable) s WHERE \(filter)"
        let bounds = try c.rows("SELECT min(\(oldPK)), max(\(oldPK)) FROM \(oldTable) WHERE \(kind) = ?", [.string(copy.oldEntity)])
        if let low = bounds.first?[0].integerValue, let high = bounds.first?[1].integerValue {
            var from = low - 1
            while from < high {
                let to = min(high, from + Self.chunk)
                try c.run(insert, values + [.integer(from), .integer(to)])
                done += c.changes
                progress(MigrationProgress(rowsDone: done, rowsTotal: totalRows, table: table))
                from = to
            }
        }
        for (column, source) in copy.columns {
            guard case .converted(let old, let from, let to, let orDefault) = source else { continue }
            let read = try c.prepare("SELECT s.\(oldPK), s.\(quoteIdentifier(old)) FROM \(oldTable) s WHERE s.\(kind) = ? AND s.\(quoteIdentifier(old)) IS NOT NULL")
            try read.bind([.string(copy.oldEntity)])
            let write = "UPDATE \(quoteIdentifier(Self.stagingPrefix + table)) SET \(quoteIdentifier(column)) = ? WHERE \(pk) = ?"
            while try read.step() {
                let key = read.int64(0) + shifts.offset(of: copy.oldTable)
                guard let converted = TypeChange.convert(read.value(at: 1, as: from), to: to) else {
                    throw .invalidOperation("\(copy.newEntity) \(key): the value of \(column) does not fit \(to.rawValue); nothing was changed")
                }
                try c.run(write, [converted, .integer(key)])
            }
            if let orDefault {
                try c.run("UPDATE \(quoteIdentifier(Self.stagingPrefix + table)) SET \(quoteIdentifier(column)) = ? WHERE \(quoteIdentifier(column)) IS NULL AND \(quoteIdentifier(newLayout.entityColumn)) = ?",
                          [orDefault, .string(copy.newEntity)])
            }
        }
    }

    /// The rows' CTE has a `_vellum_` name: an entity's table may not shadow it (CTE names ignore case).
    private func fillJoin(_ join: JoinTable, rebuiltRoots: Set<String>) throws(StoreError) {
        guard let rows = design.sources.joinRows(join) else { return }
        func current(_ table: String) -> String { quoteIdentifier(rebuiltRoots.contains(table) ? Self.stagingPrefix + table : table) }
        let names = rows.columns.indices.map { "c\($0)" }
        try c.execute("""
            WITH _vellum_join_rows(\(names.joined(separator: ", "))) AS (\(rows.select)) \
            INSERT OR IGNORE INTO \(quoteIdentifier(Self.stagingPrefix + join.table)) (\(rows.columns.map(quoteIdentifier).joined(separator: ", "))) \
            SELECT \(names.joined(separator: ", ")) FROM _vellum_join_rows WHERE c0 IN (SELECT \(pk) FROM \(current(join.sourceTable))) AND c1 IN (SELECT \(pk) FROM \(current(join.targetTable)))
            """)
    }

    /// Keys are never reused: every rebuilt table starts past the largest key its sources ever handed out.
    private func oldSequences() throws(StoreError) -> [String: Int64] {
        guard try c.tableExists("sqlite_sequence") else { return [:] }
        var out: [String: Int64] = [:]
        for row in try c.rows("SELECT name, seq FROM sqlite_sequence") {
            if let n = row[0].stringValue, let s = row[1].integerValue { out[n] = s }
        }
        return out
    }

    private func restoreSequences(_ old: [String: Int64], rebuilt: [String]) throws(StoreError) {
        for table in rebuilt {
            let sources = Set((design.copies[table] ?? []).map(\.oldTable)).union([table])
            let seq = sources.compactMap { source in old[source].map { $0 + design.sources.shifts.offset(of: source) } }.max() ?? 0
            guard seq > 0 else { continue }
            try c.run("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?", [.integer(seq), .string(table)])
            if c.changes == 0 { try c.run("INSERT INTO sqlite_sequence (name, seq) VALUES (?, ?)", [.string(table), .integer(seq)]) }
        }
    }
}
