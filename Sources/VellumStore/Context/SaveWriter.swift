import Foundation

/// Writes one save inside the writer's transaction: conflict checks and
/// resolution, key allocation, then inserts, updates, deletes and join rows.
struct SaveWriter {
    unowned let context: ManagedObjectContext
    var inserted: [ManagedObject]
    var updated: [ManagedObject]
    var deleted: [ManagedObject]
    var newVersions: [(ManagedObject, Int64)] = []
    /// Rows as stored after this save, for layouts that read written rows back
    /// (generated keys, defaults): applied to the objects after the commit.
    var readBack: [(ManagedObject, [Value])] = []
    /// Objects whose changes a `rollback` policy dropped.
    var rolledBack: [ManagedObject] = []
    /// Changed keys of each updated object (aligned with `updated`), computed once
    /// after conflict resolution for both history and the did-save event.
    var updatedKeys: [Set<String>] = []
    typealias Columns = SaveSQLCache.Columns

    init(context: ManagedObjectContext, inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) {
        self.context = context
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
    }

    var layout: any StoreLayout { context.store.layout }

    mutating func write(_ db: Connection) throws {
        for o in inserted { o.pendingKey = nil }
        newVersions = []
        rolledBack = []
        try ConflictResolver(context: context).resolveVersionConflicts(updated: &updated, deleted: &deleted, rolledBack: &rolledBack, db: db)
        try ConflictResolver(context: context).resolveUniquenessConflicts(inserted: &inserted, updated: &updated, deleted: deleted, db: db)
        try allocateKeys(db)
        try checkRestoredKeysAreFree(db)
        guard layout.writesSystemColumns else {
            try writeRowsWithoutSystemColumns(db)
            try writeJoinRowsAndPositions(db)
            try finishWrite(db)
            return
        }
        // Deletes and updates first, so values they free can be taken by inserts.
        for o in deleted {
            let m = layout.mapping(for: o.entity.name)!
            let key = Value.integer(o.objectID.primaryKey!)
            // Its many-to-many rows: a layout without SQL foreign keys (Core Data's) keeps no
            // cascade that would remove them (a destination deleted too is skipped by the join writer).
            for case .joinTable(let table, let sourceColumn, let targetColumn, _) in m.relationshipStorage {
                // A table keeping each pair once may hold the object in either column.
                let (q, either) = (layout.dialect, layout.joinTable(named: table)?.keepsEachPairOnce == true)
                let held = either ? "\(q.quote(sourceColumn)) = ?1 OR \(q.quote(targetColumn)) = ?1" : "\(q.quote(sourceColumn)) = ?"
                try db.run("DELETE FROM \(layout.rowWriteTarget(table: table).target) WHERE \(held)", [key])
            }
            try db.run("DELETE FROM \(layout.dialect.quote(m.table)) WHERE \(layout.qualifiedKey()) = ?", [key])
        }
        for o in updated { try updateRow(o, db) }
        var current: (entity: ObjectIdentifier, statement: Statement, columns: Columns, storedEntity: Value)?
        let initialVersion = layout.initialVersion
        for o in inserted {
            // Consecutive rows of one entity reuse the statement, column plan and entity column's
            // value without lookups (asking the layout per row copied it and called through it).
            if current?.entity != ObjectIdentifier(o.entity) {
                let plan = insertPlan(for: o.entity)
                current = (ObjectIdentifier(o.entity), try db.cachedStatement(plan.sql), plan.columns, layout.storedEntity(o.entity.name))
            }
            try insertRow(o, using: current!.statement, columns: current!.columns, storedEntity: current!.storedEntity, version: initialVersion)
        }
        try writeJoinRowsAndPositions(db)
        try finishWrite(db)
    }

    /// What the layout writes beside the rows (`StoreLayout.finishSave`), then the save's history.
    private mutating func finishWrite(_ db: Connection) throws {
        updatedKeys = updated.map(\.changedKeys)
        let own = try layout.finishSave(db) {
            func rows(_ objects: [ManagedObject]) -> [SavedRow] {
                objects.compactMap { o in primaryKey(o).map { SavedRow(entity: o.entity.name, key: $0) } }
            }
            return SavedRows(inserted: rows(inserted), updated: rows(updated), deleted: rows(deleted),
                             author: context.transactionAuthor, contextName: context.name)
        }
        // The layout's own history transaction: the change monitor skips it.
        if let own { context.store.ownTransactions.insert(own) }
        if !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty), let transaction = try context.store.historyTransaction() {
            try HistoryWriter(db: db, transaction: transaction, layout: layout)
                .record(inserted: inserted, updated: Array(zip(updated, updatedKeys)), deleted: deleted)
        }
    }

    func primaryKey(_ o: ManagedObject) -> Int64? {
        o.objectID.primaryKey ?? o.pendingKey
    }

    /// Keys are never reused: the next key is past both the largest row and the AUTOINCREMENT counter.
    private func allocateKeys(_ db: Connection) throws {
        if let first = inserted.first, let root = layout.table(of: first.entity.rootName), layout.reserveKeysSQL(table: root) != nil {
            return try reserveKeys(db)
        }
        var next: [String: Int64] = [:]
        var current: (root: String, key: Int64)?
        for o in inserted where o.objectID.isTemporary {
            // Keyed by root entity (one table each); the layout names the table only when the root changes.
            let root = o.entity.rootName
            if current?.root != root {
                if let current { next[current.root] = current.key }
                var key = next[root] ?? 0
                if key == 0 {
                    // Past both the AUTOINCREMENT counter and the largest row: keys are never reused.
                    let table = layout.table(of: root)!
                    let sql = context.store.saveSQL.largestKeyEverSQL(table: table) { layout.largestKeyEverSQL(table: table) }
                    key = 1 + (try db.scalarInt(sql, [.string(table)]) ?? 0)
                }
                current = (root, key)
            }
            o.pendingKey = current!.key
            current!.key += 1
        }
        if let current { next[current.root] = current.key }
        for (root, key) in next {
            let table = layout.table(of: root)!
            if let sql = layout.keysHandedOutSQL(table: table) { try db.run(sql, [.string(table), .integer(key - 1)]) }
        }
    }

    /// Keys reserved per root table in one statement each (`StoreLayout.reserveKeysSQL`).
    private func reserveKeys(_ db: Connection) throws {
        var counts: [String: Int64] = [:]
        for o in inserted where o.objectID.isTemporary { counts[o.entity.rootName, default: 0] += 1 }
        var next: [String: Int64] = [:]
        for (root, count) in counts {
            let table = layout.table(of: root)!
            let last = try db.scalarInt(layout.reserveKeysSQL(table: table)!, [.string(table), .integer(count)]) ?? count
            next[root] = last - count + 1
        }
        for o in inserted where o.objectID.isTemporary {
            let root = o.entity.rootName
            o.pendingKey = next[root]!
            next[root]! += 1
        }
    }

    /// A restored object (undo of a delete, re-adding a record deleted by another
    /// writer) takes back its own key. Vellum never hands out a used key again, so
    /// only another program can have taken it; say so rather than fail on the constraint.
    private func checkRestoredKeysAreFree(_ db: Connection) throws {
        for o in inserted where !o.objectID.isTemporary {
            let pk = o.objectID.primaryKey!
            let table = layout.table(of: o.entity.name)!
            if let other = try db.scalarText("SELECT \(layout.entityExpression(table: table, alias: nil)) FROM \(layout.dialect.quote(table)) WHERE \(layout.qualifiedKey()) = ?", [.integer(pk)]) {
                throw StoreError.invalidOperation("cannot restore \(o.objectID.uriString): its key \(pk) was taken by another \(other) row (written by another program)")
            }
        }
    }

    /// Columns written for an entity: stored attributes, then to-one foreign keys.
    func writtenColumns(_ m: EntityMapping) -> Columns {
        let attributes = m.attributeColumns.enumerated().compactMap { i, c in c.map { (i, $0) } }
        let fks = m.relationshipStorage.enumerated().compactMap { i, s -> (Int, String)? in
            if case .foreignKey(let c) = s { return (i, c) } else { return nil }
        }
        return (attributes, fks)
    }

    /// `storedForm` turns a value into what the column stores (another program's date forms).
    func bindRow(_ o: ManagedObject, _ s: Statement, columns: Columns, from index: Int32,
                 storedForm: ((Value, String) -> Value)? = nil) throws -> Int32 {
        var n = index
        for (i, column) in columns.attributes {
            try s.bind(storedForm.map { $0(o.storedValue(at: i), column) } ?? o.storedValue(at: i), at: n)
            n += 1
        }
        for (i, _) in columns.foreignKeys {
            let destination = o.relations.count > i ? o.relations[i]?.current.first : nil
            if let destination, let pk = primaryKey(destination) { s.bind(pk, at: n) } else { s.bindNull(at: n) }
            n += 1
        }
        return n
    }

    private func insertPlan(for entity: Entity) -> SaveSQLCache.InsertPlan {
        context.store.saveSQL.insertPlan(for: entity) {
            let m = layout.mapping(for: entity.name)!
            let columns = writtenColumns(m)
            let names = [layout.primaryKeyColumn, layout.entityColumn, layout.versionColumn] + columns.attributes.map(\.1) + columns.foreignKeys.map(\.1)
            let q = layout.dialect
            let sql = "INSERT INTO \(q.quote(m.table)) (\(names.map(q.quote).joined(separator: ", "))) VALUES (\(q.placeholders(names.count)))"
            return SaveSQLCache.InsertPlan(sql: sql, columns: columns)
        }
    }

    private func insertRow(_ o: ManagedObject, using s: Statement, columns: Columns, storedEntity: Value, version initialVersion: Int64) throws {
        s.rewind()
        s.bind(primaryKey(o)!, at: 1)
        try s.bind(storedEntity, at: 2)
        s.bind(initialVersion, at: 3)
        _ = try bindRow(o, s, columns: columns, from: 4)
        try s.runToCompletion()
    }

    private mutating func updateRow(_ o: ManagedObject, _ db: Connection) throws {
        let m = layout.mapping(for: o.entity.name)!
        var columns = writtenColumns(m)
        // Unloaded to-one relationships keep their stored key: leave those columns alone.
        // Only changed to-one keys are written, so a concurrent change to another key survives a merge.
        columns.foreignKeys = columns.foreignKeys.filter { o.relations.count > $0.0 && o.relations[$0.0]?.isChanged == true }
        let q = layout.dialect
        let sets = (columns.attributes.map(\.1) + columns.foreignKeys.map(\.1) + [layout.versionColumn]).map { "\(q.quote($0)) = ?" }
        let sql = "UPDATE \(q.quote(m.table)) SET \(sets.joined(separator: ", ")) WHERE \(layout.qualifiedKey()) = ?"
        let s = try db.cachedStatement(sql)
        var n = try bindRow(o, s, columns: columns, from: 1)
        let version = layout.nextVersion(after: o.version)
        s.bind(version, at: n); n += 1
        s.bind(o.objectID.primaryKey!, at: n)
        try s.runToCompletion()
        newVersions.append((o, version))
    }

    /// Many-to-many rows (written from the side that names the join table) and
    /// positions of ordered relationships.
    private func writeJoinRowsAndPositions(_ db: Connection) throws {
        let q = layout.dialect
        for o in inserted + updated where !o.relations.isEmpty {
            let m = layout.mapping(for: o.entity.name)!
            for (i, storage) in m.relationshipStorage.enumerated() {
                guard o.relations.count > i, let relation = o.relations[i], relation.isChanged || o.isInserted else { continue }
                guard let source = primaryKey(o) else { continue }
                switch storage {
                case .joinTable(let table, let sourceColumn, let targetColumn, let positionColumn):
                    // Where the layout writes the table (another program's keyed table: `main."t"`,
                    // past the per-connection view that gives it a rowid).
                    let written = layout.rowWriteTarget(table: table).target
                    if let join = layout.joinTable(named: table), join.sourceColumn == sourceColumn {
                        let removed = relation.stored.filter { s in !relation.current.contains { $0 === s } }
                        let added = relation.current.filter { c in !relation.stored.contains { $0 === c } }
                        let pairRow = JoinPairRow(join: join, target: written, dialect: q)
                        for d in removed where !d.isDeleted {
                            guard let target = primaryKey(d) else { continue }
                            try db.run(pairRow.deleteSQL, [.integer(source), .integer(target)])
                        }
                        for d in added {
                            guard let target = primaryKey(d) else { continue }
                            try db.run(pairRow.insertSQL, [.integer(source), .integer(target)])
                        }
                    }
                    if let positionColumn {
                        for (position, d) in relation.current.enumerated() {
                            guard let target = primaryKey(d) else { continue }
                            try db.run("UPDATE \(written) SET \(q.quote(positionColumn)) = ? WHERE \(q.quote(sourceColumn)) = ? AND \(q.quote(targetColumn)) = ?",
                                       [.integer(Int64(position)), .integer(source), .integer(target)])
                        }
                    }
                case .inverseForeignKey(let table, _, let positionColumn?):
                    for (position, d) in relation.current.enumerated() {
                        guard let target = primaryKey(d) else { continue }
                        try db.run("UPDATE \(q.quote(table)) SET \(q.quote(positionColumn)) = ? WHERE \(layout.qualifiedKey()) = ?", [.integer(Int64(position)), .integer(target)])
                    }
                default:
                    break
                }
            }
        }
    }
}
