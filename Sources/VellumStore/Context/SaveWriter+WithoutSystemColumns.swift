import Foundation

/// Saving into tables without entity and version columns (another program's
/// database): an insert leaves out the columns that are nil, so the table's
/// defaults apply; an update writes only the columns that changed, so nothing
/// it did not change is rewritten in another form; every written row is read
/// back (generated keys, defaults and the version computed from the row).
extension SaveWriter {
    mutating func writeRowsWithoutSystemColumns(_ db: Connection) throws {
        for o in deleted {
            let table = layout.table(of: o.entity.name)!
            try namingForeignKeys(table, deleting: true) {
                try db.run("DELETE FROM \(layout.dialect.quote(table)) WHERE \(layout.qualifiedKey()) = ?", [.integer(o.objectID.primaryKey!)])
            }
        }
        for o in updated { try namingForeignKeys(layout.table(of: o.entity.name)!, deleting: false) { try updateChangedColumns(o, db) } }
        for o in inserted { try namingForeignKeys(layout.table(of: o.entity.name)!, deleting: false) { try insertGivenColumns(o, db) } }
        try readBackRows(inserted + updated, db)
    }

    private func updateChangedColumns(_ o: ManagedObject, _ db: Connection) throws {
        let m = layout.mapping(for: o.entity.name)!
        var columns = writtenColumns(m)
        let committed = o.committed
        columns.attributes = columns.attributes.filter { i, _ in committed.map { $0[i] != o.storedValue(at: i) } ?? false }
        if let key = columns.attributes.first(where: { $0.1 == layout.keyAttributeColumn(table: m.table) }) {
            throw StoreError.invalidOperation("\(o.entity.name).\(o.entity.attributes[key.0].name) is the row's key and cannot be changed")
        }
        columns.foreignKeys = columns.foreignKeys.filter { o.relations.count > $0.0 && o.relations[$0.0]?.isChanged == true }
        guard !columns.attributes.isEmpty || !columns.foreignKeys.isEmpty else { return }
        let q = layout.dialect
        let sets = (columns.attributes.map(\.1) + columns.foreignKeys.map(\.1)).map { "\(q.quote($0)) = ?" }
        let s = try db.cachedStatement("UPDATE \(q.quote(m.table)) SET \(sets.joined(separator: ", ")) WHERE \(layout.qualifiedKey()) = ?")
        s.rewind()
        let n = try bindRow(o, s, columns: columns, from: 1)
        s.bind(o.objectID.primaryKey!, at: n)
        try s.runToCompletion()
    }

    private func insertGivenColumns(_ o: ManagedObject, _ db: Connection) throws {
        let m = layout.mapping(for: o.entity.name)!
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
        let names = [layout.primaryKeyColumn] + columns.attributes.map(\.1) + columns.foreignKeys.map(\.1)
        let s = try db.cachedStatement("INSERT INTO \(q.quote(m.table)) (\(names.map(q.quote).joined(separator: ", "))) VALUES (\(q.placeholders(names.count)))")
        s.rewind()
        s.bind(primaryKey(o)!, at: 1)
        _ = try bindRow(o, s, columns: columns, from: 2)
        try s.runToCompletion()
    }

    /// Values and versions of the written rows, as SQLite stored them.
    private mutating func readBackRows(_ objects: [ManagedObject], _ db: Connection) throws {
        readBack = []
        for (rootName, group) in Dictionary(grouping: objects, by: { $0.entity.rootName }) {
            let root = context.store.model.entity(named: rootName)!
            let selection = context.selection(for: root)
            let byKey = Dictionary(group.compactMap { o in primaryKey(o).map { ($0, o) } }, uniquingKeysWith: { a, _ in a })
            var rows: [(ManagedObject, Int64, [Value])] = []
            try RowLoader.readRows(keys: Array(byKey.keys), root: root, selection: selection, connection: db) { pk, s in
                guard let o = byKey[pk], let plan = selection.plans[o.entity.name] else { return }
                rows.append((o, s.int64(2), RowLoader.values(from: s, plan: plan)))
            }
            for (o, version, values) in rows {
                newVersions.append((o, version))
                readBack.append((o, values))
            }
        }
    }

    /// SQLite's "FOREIGN KEY constraint failed" names nothing: add the table and
    /// its foreign keys (or, for a delete, the tables that refer to it).
    private func namingForeignKeys(_ table: String, deleting: Bool, _ body: () throws -> Void) throws {
        do { try body() } catch StoreError.sqlite(var failure) where failure.extendedCode == 787 {  // SQLITE_CONSTRAINT_FOREIGNKEY
            guard let schema = (layout as? ForeignLayout)?.schema else { throw StoreError.sqlite(failure) }
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
            throw StoreError.sqlite(failure)
        }
    }
}

