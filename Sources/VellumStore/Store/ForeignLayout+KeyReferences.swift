import Foundation

/// To-ones whose foreign key refers to a key other than the target's rowid (a text or `INT`
/// primary key, a `WITHOUT ROWID` table's key, a UNIQUE column): the column holds the
/// referenced value, while every query of the store reads a to-one's column as the target's
/// object key. The source table's per-connection TEMP view (`prepare`) reads the column as
/// that key, found by the referenced value; a write stores the referenced value of the
/// object whose key is bound (`foreignKeyWriteSQL`). The file is not changed.
extension ForeignLayout {
    /// The key a declared foreign key on `column` refers to in `destinationTable`, when it is not the rowid.
    static func keyReference(of column: String, table: ForeignSchema.Table, destinationTable: ForeignSchema.Table,
                             schema: ForeignSchema) -> ForeignSchema.KeyReference? {
        let declared = table.foreignKeys.first {
            $0.from.count == 1 && $0.from[0].caseInsensitiveCompare(column) == .orderedSame
                && $0.table.caseInsensitiveCompare(destinationTable.name) == .orderedSame
        }
        guard let declared, let reference = schema.reference(declared), !reference.isRowID else { return nil }
        return reference
    }

    /// SQL over the target's own columns (unaliased) for the object key of its row.
    private func targetKeySQL(_ reference: ForeignSchema.KeyReference) -> String {
        rowKeySQL(reference.target) ?? "rowid"
    }

    /// The select list of `table`'s TEMP view, where it has to-ones to keys other than the
    /// rowid: each such column read as its target's key (NULL when no row holds the value).
    /// The value is compared as SQLite's foreign-key check compares it, in the referenced
    /// column's affinity (`+` takes the column's own away: `7` finds the text key `'7'`).
    func columnsReadingKeys(_ table: ForeignSchema.Table, alias: String) -> String? {
        let references = keyReferences[table.name] ?? [:]
        let composites = compositeKeyColumns(table, alias: alias)
        guard !references.isEmpty || !composites.isEmpty else { return nil }
        let q = dialect
        return (table.columns.map { c in
            guard let r = references[c.name] else { return "\(alias).\(q.quote(c.name))" }
            let lookup = "SELECT \(targetKeySQL(r)) FROM main.\(q.quote(r.target.name)) WHERE \(q.quote(r.column)) = +\(alias).\(q.quote(c.name))"
            return "(\(lookup)) AS \(q.quote(c.name))"
        } + composites).joined(separator: ", ")
    }

    /// True when `table` is read through a TEMP view (`prepare`): written as `main."table"`.
    func isShadowed(_ table: ForeignSchema.Table) -> Bool {
        rowKeySQL(table) != nil || keyReferences[table.name]?.isEmpty == false || compositeReferences[table.name]?.isEmpty == false
    }

    /// The referenced value of the target row whose key is bound to `?`, for a to-one to a
    /// key other than the rowid; `?` itself otherwise.
    public func foreignKeyWriteSQL(table: String, column: String) -> String {
        if let composite = compositeAssignments(table: table, column: column) { return composite[0].value }
        guard let r = keyReferences[table]?[column] else { return "?" }
        return "(SELECT \(dialect.quote(r.column)) FROM main.\(dialect.quote(r.target.name)) WHERE \(targetKeySQL(r)) = ?)"
    }

    /// A composite foreign key's columns, each with its value (`compositeAssignments`);
    /// the column and `foreignKeyWriteSQL` otherwise.
    public func foreignKeyAssignments(table: String, column: String) -> [(column: String, value: String)] {
        compositeAssignments(table: table, column: column) ?? [(column, foreignKeyWriteSQL(table: table, column: column))]
    }

    /// Under `ON DELETE SET DEFAULT`, the row a to-one in `column` of `table` takes when its
    /// foreign key refers to a key other than the rowid: SQL finding that row's object key
    /// by the column's `DEFAULT`, compared in the referenced column's affinity as SQLite's
    /// check compares it, and the default to bind. Nil for the rowid or without a default.
    public func defaultForeignKeyLookup(table: String, column: String) -> (sql: String, value: Value)? {
        guard let r = keyReferences[table]?[column], let sql = schema.table(named: table)?.column(named: column)?.defaultSQL,
              let literal = ForeignColumnType.literal(sql) else { return nil }
        return ("SELECT \(targetKeySQL(r)) FROM main.\(dialect.quote(r.target.name)) WHERE \(dialect.quote(r.column)) = ?", literal)
    }

    /// The rows of `table` whose to-one in `column` holds a given object (an inverse
    /// to-many's rows). Through the TEMP view the column is a lookup per row, so
    /// `column = ?` reads the whole table; the keys are found in the file's own table
    /// instead, by the referenced value (an index on `column` serves it), bound directly
    /// when the object holds it, else looked up by the object's key. Kept on the view
    /// where that could differ: keys digested with `row_number()` (numbered over the whole
    /// table), or columns of different affinities (SQLite compares in the referenced one's).
    public func inverseForeignKeyCondition(table: String, column: String) -> InverseForeignKeyCondition {
        let q = dialect
        let plain = InverseForeignKeyCondition(byKey: "\(q.quote(column)) = ?")
        if let composite = compositeInverseCondition(table: table, column: column) { return composite }
        guard let r = keyReferences[table]?[column], let source = schema.table(named: table),
              !source.isDigestedByRowNumber,
              let from = source.column(named: column), let to = r.target.column(named: r.column),
              ForeignColumnType.affinity(declared: from.declaredType) == ForeignColumnType.affinity(declared: to.declaredType) else { return plain }
        func rows(_ value: String) -> String {
            "\(qualifiedKey()) IN (SELECT \(rowKeySQL(source) ?? "rowid") FROM main.\(q.quote(table)) WHERE \(q.quote(column)) = \(value))"
        }
        return InverseForeignKeyCondition(byKey: rows(foreignKeyWriteSQL(table: table, column: column)),
                                          byReferencedValue: (r.column, rows("?")))
    }
}

extension ForeignSchema.Table {
    /// Rows told apart by `row_number()` over equal values (no key at all): a key that
    /// depends on the other rows, so it cannot be computed for a subset of them.
    var isDigestedByRowNumber: Bool {
        if case .rowDigest = identity { return true }
        return false
    }
}
