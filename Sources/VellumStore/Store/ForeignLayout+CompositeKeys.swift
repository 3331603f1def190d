import Foundation

/// To-ones whose foreign key has two or more columns (`FOREIGN KEY (order_id, line_no)
/// REFERENCES line`): no one column holds the target, so the source table's TEMP view adds
/// one, named after the columns (`(order_id, line_no)`), that reads the target's object key,
/// found by the columns' values as SQLite's foreign-key check finds the parent row (every
/// query of the store then treats it as any to-one's column). A write sets every column of
/// the key to the values the target's row holds (`foreignKeyAssignments`); the file is not changed.
extension ForeignLayout {
    /// The name of the view's column holding a composite foreign key's target key.
    static func compositeColumn(_ from: [String]) -> String {
        "(" + from.joined(separator: ", ") + ")"
    }

    /// The composite foreign key a to-one of `entity` stands for: the one its mapping names
    /// (`["order_id", "line_no"]`), else the one such key from `table` to `destinationTable`.
    /// Nil where the mapping names one column, or no composite key fits; a mapping naming
    /// columns that declare no such key does not fit.
    static func compositeForeignKey(_ entity: Entity, _ r: RelationshipDescription, table: ForeignSchema.Table,
                                    destinationTable: ForeignSchema.Table, schema: ForeignSchema) throws(StoreError) -> ForeignSchema.CompositeReference? {
        let candidates = table.foreignKeys.filter { $0.from.count >= 2 && $0.table.caseInsensitiveCompare(destinationTable.name) == .orderedSame }
        guard let mapped = entity.declaration.userInfo[ForeignMappingKeys.foreignKey(r.name)] else {
            let references = candidates.compactMap { schema.compositeReference($0, in: table) }
            return references.count == 1 ? references[0] : nil
        }
        guard let columns = ForeignMappingKeys.columnList(mapped) else { return nil }
        let declared = candidates.first { k in
            k.from.count == columns.count && zip(k.from, columns).allSatisfy { $0.caseInsensitiveCompare($1) == .orderedSame }
        }
        guard let declared, let reference = schema.compositeReference(declared, in: table) else {
            throw StoreError.invalidOperation("the model does not fit the database: entity \(entity.name): relationship \(r.name): table '\(table.name)' declares no foreign key (\(columns.joined(separator: ", "))) to a key of '\(destinationTable.name)'")
        }
        return reference
    }

    /// The view's columns for `table`'s composite foreign keys, each the target's key (NULL
    /// when no row holds the values, or one of them is NULL: SQLite then checks nothing).
    /// Values are compared in the referenced columns' affinities (`+`), as SQLite's check does.
    func compositeKeyColumns(_ table: ForeignSchema.Table, alias: String) -> [String] {
        guard let composites = compositeReferences[table.name] else { return [] }
        let q = dialect
        return composites.keys.sorted().map { name in
            let r = composites[name]!
            let match = zip(r.from, r.to).map { from, to in "\(q.quote(to)) = +\(alias).\(q.quote(from))" }.joined(separator: " AND ")
            return "(SELECT \(rowKeySQL(r.target) ?? "rowid") FROM main.\(q.quote(r.target.name)) WHERE \(match)) AS \(q.quote(name))"
        }
    }

    /// Each column of a composite foreign key set to what the target's row holds in the
    /// column it refers to. The target's key is one named parameter that every value
    /// shares, so it is bound once, in the place of a single column's `?`.
    func compositeAssignments(table: String, column: String) -> [(column: String, value: String)]? {
        guard let composites = compositeReferences[table], let r = composites[column] else { return nil }
        let q = dialect
        let parameter = ":vellum_fk\(composites.keys.sorted().firstIndex(of: column)!)"
        let key = rowKeySQL(r.target) ?? "rowid"
        return zip(r.from, r.to).map { from, to in
            (from, "(SELECT \(q.quote(to)) FROM main.\(q.quote(r.target.name)) WHERE \(key) = \(parameter))")
        }
    }

    /// The rows of `table` whose composite foreign key holds the object whose key is bound:
    /// found in the file's own table by the values the object's row holds (an index on the
    /// columns serves it), rather than through the view's lookup of every row. Nil where
    /// that could differ from the view (rows numbered over the whole table, or columns whose
    /// affinities differ from those they refer to).
    func compositeInverseCondition(table: String, column: String) -> InverseForeignKeyCondition? {
        guard let r = compositeReferences[table]?[column], let source = schema.table(named: table), !source.isDigestedByRowNumber else { return nil }
        let sameAffinities = zip(r.from, r.to).allSatisfy { from, to in
            guard let f = source.column(named: from), let t = r.target.column(named: to) else { return false }
            return ForeignColumnType.affinity(declared: f.declaredType) == ForeignColumnType.affinity(declared: t.declaredType)
        }
        guard sameAffinities else { return nil }
        let q = dialect
        let columns = r.from.map(q.quote).joined(separator: ", ")
        let values = "SELECT \(r.to.map(q.quote).joined(separator: ", ")) FROM main.\(q.quote(r.target.name)) WHERE \(rowKeySQL(r.target) ?? "rowid") = ?"
        return InverseForeignKeyCondition(byKey: "\(qualifiedKey()) IN (SELECT \(rowKeySQL(source) ?? "rowid") FROM main.\(q.quote(table)) WHERE (\(columns)) = (\(values)))")
    }
}
