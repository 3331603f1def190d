import Foundation

/// Finds and resolves save conflicts inside the write transaction, per the
/// context's merge policy. Version conflicts are resolved before uniqueness
/// conflicts, as Core Data does.
struct ConflictResolver {
    unowned let context: ManagedObjectContext
    var policy: MergePolicy { context.mergePolicy }

    /// The stored row of each object: version and attribute values (missing = deleted).
    private func storedRows(_ objects: [ManagedObject], db: Connection) throws -> [ObjectIdentifier: (version: Int64, values: [Value])] {
        var result: [ObjectIdentifier: (Int64, [Value])] = [:]
        let byRoot = Dictionary(grouping: objects) { $0.entity.rootName }
        for (rootName, group) in byRoot {
            let root = context.store.model.entity(named: rootName)!
            let selection = context.selection(for: root)
            let byKey = Dictionary(group.map { ($0.objectID.primaryKey!, $0) }, uniquingKeysWith: { a, _ in a })
            try RowLoader.readRows(keys: Array(byKey.keys), root: root, selection: selection, connection: db) { pk, s in
                guard let o = byKey[pk], let plan = selection.plans[o.entity.name] else { return }
                result[ObjectIdentifier(o)] = (s.int64(2), RowLoader.values(from: s, plan: plan))
            }
        }
        return result
    }

    private func snapshot(_ o: ManagedObject, _ values: [Value]) -> [String: Value] {
        var d: [String: Value] = [:]
        for (i, a) in o.entity.attributes.enumerated() where i < values.count { d[a.name] = values[i] }
        return d
    }

    func resolveVersionConflicts(updated: inout [ManagedObject], deleted: inout [ManagedObject], rolledBack: inout [ManagedObject], db: Connection) throws {
        let candidates = updated + deleted
        guard !candidates.isEmpty else { return }
        let rows = try storedRows(candidates, db: db)
        var conflicts: [MergeConflict] = []
        var dropped = Set<ObjectIdentifier>()
        for o in candidates {
            let stored = rows[ObjectIdentifier(o)]
            let newVersion = stored?.version ?? 0
            guard newVersion != o.version else { continue }
            let cached = o.committed ?? o.values
            let conflict = MergeConflict(kind: .version, objectID: o.objectID, oldVersion: o.version, newVersion: newVersion,
                                         objectSnapshot: snapshot(o, o.values), cachedSnapshot: snapshot(o, cached),
                                         persistedSnapshot: stored.map { snapshot(o, $0.values) })
            switch policy {
            case .error:
                conflicts.append(conflict)
            case .rollback:
                dropped.insert(ObjectIdentifier(o))
                rolledBack.append(o)
            case .overwrite, .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
                guard let stored else {
                    // Deleted underneath: a delete is already done; an update has nothing left to merge into.
                    if o.isDeleted { dropped.insert(ObjectIdentifier(o)) } else { conflicts.append(conflict) }
                    continue
                }
                if !o.isDeleted && policy != .overwrite {
                    var merged = stored.values
                    for i in o.values.indices where i < cached.count {
                        let mine = o.values[i] != cached[i]
                        let theirs = stored.values[i] != cached[i]
                        if mine && (!theirs || policy == .mergeByPropertyObjectTrump) { merged[i] = o.values[i] }
                    }
                    o.values = merged
                }
                o.committed = stored.values
                o.version = stored.version
            }
        }
        if !conflicts.isEmpty { throw StoreError.conflicts(conflicts) }
        updated.removeAll { dropped.contains(ObjectIdentifier($0)) }
        deleted.removeAll { dropped.contains(ObjectIdentifier($0)) }
    }

    func resolveUniquenessConflicts(inserted: inout [ManagedObject], updated: inout [ManagedObject], deleted: [ManagedObject], db: Connection) throws {
        let deletedKeys = Set(deleted.compactMap { o in o.objectID.primaryKey.map { "\(o.objectID.rootName)#\($0)" } })
        var claimed: [String: ManagedObject] = [:]
        var conflicts: [MergeConflict] = []
        var becameUpdates: [ManagedObject] = []
        for o in inserted + updated where !o.entity.uniquenessConstraints.isEmpty {
            let m = context.store.layout.mapping(for: o.entity.name)!
            for constraint in o.entity.uniquenessConstraints {
                let indices = constraint.compactMap { o.entity.attributeIndexByName[$0] }
                let values = indices.map { o.values[$0] }
                if values.contains(where: \.isNull) { continue }
                if !o.isInserted, let committed = o.committed, indices.allSatisfy({ committed[$0] == o.values[$0] }) { continue }
                let claimKey = "\(o.entity.rootName)|\(constraint.joined(separator: ","))|\(values.map { String(reflecting: $0) }.joined(separator: "|"))"
                if let other = claimed[claimKey], other !== o {
                    conflicts.append(uniquenessConflict(o, constraint: constraint, existing: other.objectID, stored: nil))
                    continue
                }
                claimed[claimKey] = o
                let (layout, q) = (context.store.layout, context.store.layout.dialect)
                let columns = indices.map { q.quote(m.attributeColumns[$0]!) }
                var sql = "SELECT \(layout.qualifiedKey()), \(layout.versionExpression(table: m.table, alias: nil)) FROM \(q.quote(m.table)) WHERE "
                    + columns.map { "\($0) = ?" }.joined(separator: " AND ")
                var bindings = values
                if let pk = o.objectID.primaryKey { sql += " AND \(layout.qualifiedKey()) <> ?"; bindings.append(.integer(pk)) }
                guard let row = try db.rows(sql, bindings).first, let pk = row[0].integerValue else { continue }
                if deletedKeys.contains("\(o.entity.rootName)#\(pk)") { continue }
                let existingID = context.store.objectID(entity: o.entity.name, primaryKey: pk)
                if let other = context.registeredObject(for: existingID), other !== o, !other.isInserted,
                   indices.contains(where: { other.values.count > $0 && other.values[$0] != o.values[$0] }), other.hasChangedValues {
                    continue  // That row is moving away from this value in the same save.
                }
                if o.isInserted && policy != .error {
                    try adopt(o, existing: existingID, version: row[1].integerValue ?? 1, db: db)
                    becameUpdates.append(o)
                } else {
                    conflicts.append(uniquenessConflict(o, constraint: constraint, existing: existingID, stored: nil))
                }
            }
        }
        if !conflicts.isEmpty { throw StoreError.conflicts(conflicts) }
        inserted.removeAll { o in becameUpdates.contains { $0 === o } }
        updated.append(contentsOf: becameUpdates)
    }

    private func uniquenessConflict(_ o: ManagedObject, constraint: [String], existing: ObjectID, stored: [Value]?) -> MergeConflict {
        MergeConflict(kind: .uniqueness(attributes: constraint, existing: existing), objectID: o.objectID, oldVersion: o.version,
                      newVersion: o.version, objectSnapshot: snapshot(o, o.values), cachedSnapshot: snapshot(o, o.committed ?? o.values),
                      persistedSnapshot: nil)
    }

    /// An inserted object takes over the existing row it collides with (an upsert):
    /// its values win under object-trump and overwrite, the stored ones otherwise.
    private func adopt(_ o: ManagedObject, existing: ObjectID, version: Int64, db: Connection) throws {
        let rows = try storedRowsByID(existing, entity: o.entity, db: db)
        let oldID = o.objectID
        if !oldID.isTemporary { context.registry[oldID] = nil }
        if let previous = context.registry[existing], previous !== o { previous.detachFromContext() }
        o.objectID = ObjectID(entityName: o.entity.name, rootName: o.entity.rootName, key: existing.key, storeIdentifier: existing.storeIdentifier)
        context.registry[o.objectID] = o
        o.isInserted = false
        o.version = version
        o.committed = rows
        if policy == .mergeByPropertyStoreTrump || policy == .rollback { o.values = rows }
    }

    private func storedRowsByID(_ id: ObjectID, entity: Entity, db: Connection) throws -> [Value] {
        let root = context.store.model.entity(named: entity.rootName)!
        let selection = context.selection(for: root)
        guard let plan = selection.plans[entity.name] else { return [Value](repeating: .null, count: entity.attributes.count) }
        var values = [Value](repeating: .null, count: entity.attributes.count)
        try RowLoader.readRows(keys: [id.primaryKey!], root: root, selection: selection, connection: db) { _, s in
            values = RowLoader.values(from: s, plan: plan)
        }
        return values
    }
}
