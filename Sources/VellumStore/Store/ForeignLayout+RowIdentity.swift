import Foundation

extension ForeignSchema.Table {
    /// A row's object-ID key, for a table addressed by its declared key (`.keyColumn`,
    /// `.keyDigest`; nil for rowid tables and views), as SQL built by the caller: `column`
    /// gives a column's SQL (`"k"`, `NEW."k"`), `rowid` the row id's, `digest` the key of a
    /// list of SQL values. The one rule for the key of such a row, which the layout reads
    /// (`vellum_row_version`) and tracking's triggers record (`RecordedKey`).
    ///
    /// SQLite lets a rowid table's declared key hold NULL unless it is `NOT NULL`: such
    /// rows would all share the key of NULL (and one write would change them all), so a
    /// row whose key is NULL is known by a digest of its rowid instead — unique, though
    /// `VACUUM` may renumber it, as it may any rowid. Keys that cannot be NULL stay as
    /// they are (an integer key keeps its index for lookups).
    public func declaredKeySQL(column: (String) -> String, rowid: String, digest: ([String]) -> String) -> String? {
        let key: String
        switch identity {
        case .keyColumn(let c): key = column(c)
        case .keyDigest(let columns): key = digest(columns.map(column))
        case .rowid, .rowDigest, nil: return nil
        }
        let nullable = primaryKey.filter { name in hasRowID && self.column(named: name)?.notNull != true }
        guard !nullable.isEmpty else { return key }
        let isNull = nullable.map { "\(column($0)) IS NULL" }.joined(separator: " OR ")
        return "(CASE WHEN \(isNull) THEN \(digest(["'null key'", rowid])) ELSE \(key) END)"
    }
}

/// Tables addressed by their declared key rather than a rowid (a text or composite
/// primary key, `WITHOUT ROWID` or not) and views: every query of the store reads a row's key
/// as `rowid`, so on each connection a TEMP view of the same name shadows such a
/// table, adding `rowid` = its key (`ForeignSchema.RowIdentity`). TEMP objects live
/// in the connection's own temporary schema: the file is not changed. Writes go
/// to `main."table"` directly, finding the row by the same key expression; views
/// are read-only.
extension ForeignLayout {
    /// SQL for a row's key over the columns of `table` itself (unaliased); nil for rowid tables.
    func rowKeySQL(_ table: ForeignSchema.Table) -> String? {
        let q = dialect
        if case .rowDigest(let columns) = table.identity {
            let list = columns.map(q.quote).joined(separator: ", ")
            return "vellum_row_version(\(list), row_number() OVER (PARTITION BY \(list)))"
        }
        return table.declaredKeySQL(column: q.quote, rowid: "rowid") { "vellum_row_version(\($0.joined(separator: ", ")))" }
    }

    /// Creates the TEMP views that give mapped tables without a rowid (and views) a `rowid`,
    /// and read to-ones to keys other than the rowid as their targets' keys (`ForeignLayout+KeyReferences`).
    public func prepare(_ connection: Connection) throws(StoreError) {
        let shadowed = mappedTables.compactMap { name -> (String, String)? in
            guard let t = schema.table(named: name), isShadowed(t) else { return nil }
            let key = rowKeySQL(t) ?? "rowid"
            guard let columns = columnsReadingKeys(t, alias: "vellum_row") else { return (t.name, "SELECT \(key) AS rowid, * FROM main.\(dialect.quote(t.name))") }
            return (t.name, "SELECT \(key) AS rowid, \(columns) FROM main.\(dialect.quote(t.name)) AS vellum_row")
        }
        guard !shadowed.isEmpty else { return }
        try connection.allowingTemporaryObjects { () throws(StoreError) in
            for (table, select) in shadowed {
                try connection.run("CREATE TEMP VIEW \(dialect.quote(table)) AS \(select)")
            }
        }
    }

    /// Where writes of `table` go and the condition finding the row whose key is `?`.
    public func rowWriteTarget(table: String) -> RowWriteTarget {
        let name = dialect.quote(table)
        guard let t = schema.table(named: table), isShadowed(t) else { return RowWriteTarget(target: name, match: "\(qualifiedKey()) = ?") }
        return RowWriteTarget(target: "main.\(name)", match: "\(rowKeySQL(t) ?? qualifiedKey()) = ?")
    }

    public func digestedKeyColumns(table: String) -> [String]? {
        guard case .keyDigest(let columns) = schema.table(named: table)?.identity else { return nil }
        return columns
    }

    public func digestKeyMap(table: String) -> DigestKeyMap? {
        guard let t = schema.table(named: table), case .keyDigest(let columns) = t.identity, let key = rowKeySQL(t) else { return nil }
        return DigestKeyMap(table: t.name, columns: columns, key: key, dialect: dialect)
    }

    /// A table without a rowid: its key is what its key columns hold, read back after an
    /// insert (SQLite's type affinity may have changed them).
    public func insertedKeySQL(table: String) -> String? {
        schema.table(named: table).flatMap(rowKeySQL)
    }

    /// Why rows of `table` cannot be written (a view, a table without a primary key), or nil.
    public func readOnlyReason(table: String) -> String? {
        schema.table(named: table)?.readOnlyReason
    }

    /// The `INTEGER PRIMARY KEY` shown as an attribute, and the key columns of a table
    /// without a rowid: written on insert, never changed.
    public func keyColumns(table: String) -> [String] {
        let identity: [String]
        switch schema.table(named: table)?.identity {
        case .keyColumn(let c): identity = [c]
        case .keyDigest(let columns): identity = columns
        default: identity = []
        }
        return [keyAttributeColumn(table: table)].compactMap { $0 } + identity
    }

    /// SQLite's "FOREIGN KEY constraint failed" names nothing: add the table and its
    /// foreign keys (or, for a delete, the tables that refer to it). A CHECK failure is
    /// worded with the table, columns and constraint text (`ForeignCheckConstraint`).
    public func describe(_ failure: SQLiteFailure, writing table: String, deleting: Bool) -> SQLiteFailure {
        var failure = failure
        switch failure.extendedCode {
        case 787:  // SQLITE_CONSTRAINT_FOREIGNKEY
            let keys: [String]
            if deleting {
                keys = schema.tables.flatMap { t in
                    t.foreignKeys.filter { $0.table.caseInsensitiveCompare(table) == .orderedSame }
                        .map { "\(t.name).\($0.from.joined(separator: ", ")) refers to it" }
                }
            } else {
                keys = schema.table(named: table)?.foreignKeys.map { "\(table).\($0.from.joined(separator: ", ")) → \($0.table)" } ?? []
            }
            failure.message += " (\(deleting ? "deleting from" : "writing") \(table): \(keys.joined(separator: "; ")))"
        case 275:  // SQLITE_CONSTRAINT_CHECK: SQLite names only the constraint or its expression
            if let t = schema.table(named: table), let text = ForeignCheckConstraint.describe(failure: failure.message, table: t) {
                failure.message = text
            }
        default:
            break
        }
        return failure
    }
}
