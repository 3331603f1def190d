import Foundation

/// Saving into tables without entity and version columns (another program's
/// database): an insert leaves out the columns that are nil, so the table's
/// defaults apply; an update writes only the columns that changed, so nothing
/// it did not change is rewritten in another form; every written row is read
/// back (generated keys, defaults and the version computed from the row).
extension SaveWriter {
    mutating func writeRowsWithoutSystemColumns(_ db: Connection) throws {
        for o in deleted + updated + inserted {
            if let reason = layout.readOnlyReason(table: layout.table(of: o.entity.name)!) { throw StoreError.invalidOperation(reason) }
        }
        for o in deleted {
            let table = layout.table(of: o.entity.name)!
            let (target, match) = rowWriteTarget(table)
            try describingFailures(table, deleting: true) {
                try findingRow(of: o, match: match, db) { condition, key in
                    try db.run("DELETE FROM \(target) WHERE \(condition)", key)
                }
                try Self.checkOneRow(db, table, deleting: true)
            }
        }
        for o in updated { try describingFailures(layout.table(of: o.entity.name)!, deleting: false) { try updateChangedColumns(o, db) } }
        for o in destinationsFirst(inserted) { try describingFailures(layout.table(of: o.entity.name)!, deleting: false) { try insertGivenColumns(o, db) } }
        try readBackRows(inserted + updated, db)
    }

    private func updateChangedColumns(_ o: ManagedObject, _ db: Connection) throws {
        let m = layout.mapping(for: o.entity.name)!
        var columns = writtenColumns(m)
        let committed = o.committed
        columns.attributes = columns.attributes.filter { i, _ in committed.map { $0[i] != o.storedValue(at: i) } ?? false }
        let keyColumns = layout.keyColumns(table: m.table)
        if let key = columns.attributes.first(where: { keyColumns.contains($0.1) }) {
            throw StoreError.invalidOperation("\(o.entity.name).\(o.entity.attributes[key.0].name) is the row's key and cannot be changed")
        }
        columns.foreignKeys = columns.foreignKeys.filter { o.relations.count > $0.0 && o.relations[$0.0]?.isChanged == true }
        guard !columns.attributes.isEmpty || !columns.foreignKeys.isEmpty else { return }
        let written = assignments(columns, table: m.table)
        // A to-one held in key columns (a key that is a foreign key) would change the row's key.
        for (i, column) in columns.foreignKeys {
            let held = layout.foreignKeyAssignments(table: m.table, column: column).map(\.column)
            if held.contains(where: keyColumns.contains) {
                throw StoreError.invalidOperation("\(o.entity.name).\(o.entity.relationships[i].name) is held in the row's key (\(held.joined(separator: ", "))) and cannot be changed")
            }
        }
        let q = layout.dialect
        let sets = written.map { "\(q.quote($0.column)) = \($0.value)" }
        let (target, match) = rowWriteTarget(m.table)
        try findingRow(of: o, match: match, db) { condition, key in
            let s = try db.cachedStatement("UPDATE \(target) SET \(sets.joined(separator: ", ")) WHERE \(condition)")
            s.rewind()
            var n = try bindRow(o, s, columns: columns, from: 1, storedForm: storedForm(table: m.table))
            for v in key {
                try s.bind(v, at: n)
                n += 1
            }
            try s.runToCompletion()
        }
        try Self.checkOneRow(db, m.table, deleting: false)
    }

    /// Runs `write` with the condition finding `o`'s row and the values it binds (after the
    /// statement's own): its key, and where that is a digest of the key columns, their
    /// values first (`KeyColumnMatch`: the primary-key index, not a digest of every row).
    /// When they find no row (its values are not as stored), by the key alone.
    private func findingRow(of o: ManagedObject, match: String, _ db: Connection,
                            _ write: (_ condition: String, _ bindings: [Value]) throws -> Void) throws {
        let key = Value.integer(o.objectID.primaryKey!)
        if let byColumns = KeyColumnMatch(entity: o.entity, layout: layout), let values = byColumns.values(of: o, layout: layout) {
            try write(byColumns.condition(alias: nil, layout.dialect) + " AND " + match, values + [key])
            if db.changedRows > 0 { return }
        }
        try write(match, [key])
    }

    /// A write by key changes one row: more means the key does not tell rows apart (a
    /// repeated or colliding key), and the whole save is refused before anything is kept.
    private static func checkOneRow(_ db: Connection, _ table: String, deleting: Bool) throws {
        let n = db.changedRows
        guard n > 1 else { return }
        throw StoreError.invalidOperation("\(deleting ? "deleting" : "changing") one row of \(table) would have \(deleting ? "deleted" : "changed") \(n): they share its key, so nothing was written")
    }

    private func insertGivenColumns(_ o: ManagedObject, _ db: Connection) throws {
        let m = layout.mapping(for: o.entity.name)!
        if let key = layout.insertedKeySQL(table: m.table) { return try insertKeyedByColumns(o, m, key: key, db) }
        var columns = writtenColumns(m)
        // A key column shown as an attribute: a value given for it is the new row's key.
        let keyColumn = layout.keyAttributeColumn(table: m.table)
        if let key = columns.attributes.first(where: { $0.1 == keyColumn }), o.objectID.isTemporary,
           case .integer(let given) = o.storedValue(at: key.0) {
            o.pendingKey = given
        }
        columns.attributes = columns.attributes.filter { i, c in c != keyColumn && !o.storedValue(at: i).isNull }
        columns.foreignKeys = columns.foreignKeys.filter { i, _ in
            o.relations.count > i && o.relations[i]?.current.first.flatMap(primaryKey) != nil
        }
        let q = layout.dialect
        let written = assignments(columns, table: m.table)
        let names = [layout.primaryKeyColumn] + written.map(\.column)
        let values = (["?"] + written.map(\.value)).joined(separator: ", ")
        let s = try db.cachedStatement("INSERT INTO \(rowWriteTarget(m.table).target) (\(names.map(q.quote).joined(separator: ", "))) VALUES (\(values))")
        s.rewind()
        s.bind(primaryKey(o)!, at: 1)
        _ = try bindRow(o, s, columns: columns, from: 2, storedForm: storedForm(table: m.table))
        try s.runToCompletion()
    }

    /// A row of a table without a rowid: its key is what its key columns hold,
    /// read back with `RETURNING` (SQLite's type affinity may have changed them).
    private func insertKeyedByColumns(_ o: ManagedObject, _ m: EntityMapping, key: String, _ db: Connection) throws {
        var columns = writtenColumns(m)
        columns.attributes = columns.attributes.filter { i, _ in !o.storedValue(at: i).isNull }
        columns.foreignKeys = columns.foreignKeys.filter { i, _ in
            o.relations.count > i && o.relations[i]?.current.first.flatMap(primaryKey) != nil
        }
        let q = layout.dialect
        let written = assignments(columns, table: m.table)
        let values = written.isEmpty ? "DEFAULT VALUES" : "(\(written.map { q.quote($0.column) }.joined(separator: ", "))) VALUES (\(written.map(\.value).joined(separator: ", ")))"
        let s = try db.cachedStatement(q.returning("INSERT INTO \(rowWriteTarget(m.table).target) \(values)", expressions: [key]))
        s.rewind()
        _ = try bindRow(o, s, columns: columns, from: 1, storedForm: storedForm(table: m.table))
        guard try s.step() else { throw StoreError.invalidOperation("inserting into \(m.table) returned no key") }
        o.pendingKey = s.int64(0)
        try s.runToCompletion()
    }

    private func rowWriteTarget(_ table: String) -> (target: String, match: String) {
        let t = layout.rowWriteTarget(table: table)
        return (t.target, t.match)
    }

    /// Each written column with its value's SQL: `?` for an attribute, a to-one's key as the
    /// layout stores it (`StoreLayout.foreignKeyAssignments`: one column, or each column of a
    /// composite foreign key). A to-one binds one value however many columns it writes.
    private func assignments(_ columns: Columns, table: String) -> [(column: String, value: String)] {
        columns.attributes.map { ($0.1, "?") } + columns.foreignKeys.flatMap { layout.foreignKeyAssignments(table: table, column: $0.1) }
    }

    /// Another program's date columns keep their form (`ForeignDateStorage`).
    private func storedForm(table: String) -> ((Value, String) -> Value)? {
        let layout = layout
        return { layout.storedForm($0, table: table, column: $1) }
    }

    /// Values and versions of the written rows, as SQLite stored them.
    private mutating func readBackRows(_ objects: [ManagedObject], _ db: Connection) throws {
        readBack = []
        for (rootName, group) in Dictionary(grouping: objects, by: { $0.entity.rootName }) {
            let root = context.store.model.entity(named: rootName)!
            let selection = context.selection(for: root)
            let byKey = Dictionary(group.compactMap { o in primaryKey(o).map { ($0, o) } }, uniquingKeysWith: { a, _ in a })
            var rows: [(ManagedObject, Int64, [Value])] = []
            try RowLoader.readRows(keys: Array(byKey.keys), root: root, selection: selection, connection: db, objects: byKey) { pk, s in
                guard let o = byKey[pk], let plan = selection.plans[o.entity.name] else { return }
                let read = selection.read(s)
                rows.append((o, read.version, RowLoader.values(from: s, plan: plan, read: read.values)))
            }
            for (o, version, values) in rows {
                newVersions.append((o, version))
                readBack.append((o, values))
            }
        }
    }

    /// A failed write worded by the layout (`StoreLayout.describe(_:writing:deleting:)`:
    /// the foreign keys involved, a CHECK constraint's text).
    private func describingFailures(_ table: String, deleting: Bool, _ body: () throws -> Void) throws {
        do { try body() } catch StoreError.sqlite(let failure) {
            throw StoreError.sqlite(layout.describe(failure, writing: table, deleting: deleting))
        }
    }
}
