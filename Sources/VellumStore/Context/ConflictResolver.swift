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
            try RowLoader.readRows(keys: Array(byKey.keys), root: root, selection: selection, connection: db, objects: byKey) { pk, s in
                guard let o = byKey[pk], let plan = selection.plans[o.entity.name] else { return }
                let read = selection.read(s)
                result[ObjectIdentifier(o)] = (read.version, RowLoader.values(from: s, plan: plan, read: read.values))
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

    /// One uniqueness check of one object: its values for one constraint, and, once the
    /// store is asked, the rows holding them (key, version; in the order the store gave).
    private struct UniquenessCheck {
        let object: ManagedObject
        /// Which of the save's `ConstraintGroup`s it belongs to.
        let group: Int
        let constraint: [String]
        let indices: [Int]
        let values: [Value]
        /// Another object of this save claiming the same values first (a duplicate inside the save).
        let claimedBy: ManagedObject?
        var storedRows: [(key: Int64, version: Int64?)] = []
    }

    /// The in-memory claim of a constraint's values in this save: the constraint of a root
    /// entity (by its group number) and the values.
    private struct ClaimKey: Hashable {
        let group: Int
        let values: [Value]
    }

    /// One constraint of one entity, looked up once per save rather than once per object:
    /// its attribute indices, the group its claims share (the root's constraint over the same
    /// names) and, for the store query, the table and columns.
    private struct ConstraintGroup {
        let indices: [Int]
        let group: Int
        let table: String
        let columns: [String]
    }

    /// The groups of `entity`'s constraints, numbering new (root, constraint) pairs in `numbers`.
    private func constraintGroups(of entity: Entity, numbers: inout [[String]: Int]) -> [ConstraintGroup] {
        let m = context.store.layout.mapping(for: entity.name)!
        return entity.uniquenessConstraints.map { constraint in
            let indices = constraint.compactMap { entity.attributeIndexByName[$0] }
            let name = [entity.rootName] + constraint
            let group = numbers[name] ?? numbers.count
            numbers[name] = group
            return ConstraintGroup(indices: indices, group: group, table: m.table, columns: indices.map { m.attributeColumns[$0]! })
        }
    }

    /// Checks every inserted and changed object against the others of the save (in memory) and
    /// against the store, asking the store once per table and constraint (in chunks of
    /// `uniquenessChunk` objects), not once per object. The first object of the save to claim
    /// values keeps them; a later one is a conflict naming it. A stored row holding the values
    /// is a conflict (or, for an inserted object under a merging policy, the row it takes over),
    /// unless that row is deleted or changes away from them in the same save.
    func resolveUniquenessConflicts(inserted: inout [ManagedObject], updated: inout [ManagedObject], deleted: [ManagedObject], db: Connection) throws {
        let deletedKeys = Set(deleted.compactMap { o in o.objectID.primaryKey.map { "\(o.objectID.rootName)#\($0)" } })
        var claimed: [ClaimKey: ManagedObject] = [:]
        claimed.reserveCapacity(inserted.count + updated.count)
        var checks: [UniquenessCheck] = []
        var groupsByEntity: [ObjectIdentifier: [ConstraintGroup]] = [:]
        var numbers: [[String]: Int] = [:]
        var groups: [Int: ConstraintGroup] = [:]
        for o in inserted + updated where !o.entity.uniquenessConstraints.isEmpty {
            let entityGroups = groupsByEntity[ObjectIdentifier(o.entity)] ?? {
                let made = constraintGroups(of: o.entity, numbers: &numbers)
                groupsByEntity[ObjectIdentifier(o.entity)] = made
                for g in made where groups[g.group] == nil { groups[g.group] = g }
                return made
            }()
            for (constraint, g) in zip(o.entity.uniquenessConstraints, entityGroups) {
                let indices = g.indices
                let values = indices.map { o.storedValue(at: $0) }  // not values[$0]: that copies the row
                if values.contains(where: \.isNull) { continue }
                if !o.isInserted, let committed = o.committed, indices.allSatisfy({ committed[$0] == o.storedValue(at: $0) }) { continue }
                let claimKey = ClaimKey(group: g.group, values: values)
                if let other = claimed[claimKey], other !== o {
                    checks.append(UniquenessCheck(object: o, group: g.group, constraint: constraint, indices: indices, values: values, claimedBy: other))
                    continue
                }
                claimed[claimKey] = o
                checks.append(UniquenessCheck(object: o, group: g.group, constraint: constraint, indices: indices, values: values, claimedBy: nil))
            }
        }
        guard !checks.isEmpty else { return }
        try findStoredRows(&checks, groups: groups, db: db)

        let layout = context.store.layout
        var conflicts: [MergeConflict] = []
        var becameUpdates: [ManagedObject] = []
        for check in checks {
            let o = check.object
            if let other = check.claimedBy {
                conflicts.append(uniquenessConflict(o, constraint: check.constraint, existing: other.objectID, stored: nil))
                continue
            }
            // The object's own row never conflicts with it (its key may be new: adopted for an earlier constraint).
            let ownKey = o.objectID.primaryKey
            guard let row = check.storedRows.first(where: { $0.key != ownKey }) else { continue }
            if deletedKeys.contains("\(o.entity.rootName)#\(row.key)") { continue }
            let existingID = context.store.objectID(entity: o.entity.name, primaryKey: row.key)
            if let other = context.registeredObject(for: existingID), other !== o, !other.isInserted,
               check.indices.contains(where: { other.values.count > $0 && other.values[$0] != o.values[$0] }), other.hasChangedValues {
                continue  // That row is moving away from this value in the same save.
            }
            if o.isInserted && policy != .error {
                try adopt(o, existing: existingID, version: row.version ?? layout.initialVersion, db: db)
                becameUpdates.append(o)
            } else {
                conflicts.append(uniquenessConflict(o, constraint: check.constraint, existing: existingID, stored: nil))
            }
        }
        if !conflicts.isEmpty { throw StoreError.conflicts(conflicts) }
        guard !becameUpdates.isEmpty else { return }
        let adopted = Set(becameUpdates.map(ObjectIdentifier.init))
        inserted.removeAll { adopted.contains(ObjectIdentifier($0)) }
        updated.append(contentsOf: becameUpdates)
    }

    /// Objects per statement when the store is asked for the rows holding constraint values.
    static let uniquenessChunk = 500

    /// Fills `storedRows` of the checks not already claimed inside the save: one statement per
    /// table, constraint and chunk. On SQLite the values are joined as a `VALUES` list, each row
    /// carrying its check's position, so every stored row is matched with `=` exactly as a
    /// one-object query would match it (affinity and collation of the column on the left); a
    /// remote engine (PostgreSQL, whose untyped `VALUES` parameters would be text) is asked
    /// once per object, as before.
    private func findStoredRows(_ checks: inout [UniquenessCheck], groups: [Int: ConstraintGroup], db: Connection) throws {
        let (layout, q) = (context.store.layout, context.store.layout.dialect)
        // Table and columns → check positions, in save order (sub-entities of one root, whose
        // groups differ only by entity, share a query).
        var byGroup: [Int: [Int]] = [:]
        var groupOrder: [Int] = []
        for (position, check) in checks.enumerated() where check.claimedBy == nil {
            if byGroup[check.group] == nil { groupOrder.append(check.group) }
            byGroup[check.group, default: []].append(position)
        }
        var byTarget: [[String]: [Int]] = [:]
        var order: [[String]] = []
        for group in groupOrder {
            let g = groups[group]!
            let key = [g.table] + g.columns
            if byTarget[key] == nil { order.append(key) }
            byTarget[key, default: []].append(contentsOf: byGroup[group]!)
        }
        for key in order {
            let table = key[0], columns = key.dropFirst().map { q.quote($0) }
            let positions = byTarget[key]!.sorted()
            if db.remote != nil {
                for position in positions {
                    var sql = "SELECT \(layout.qualifiedKey()), \(layout.versionExpression(table: table, alias: nil)) FROM \(q.quote(table)) WHERE "
                        + columns.map { "\($0) = ?" }.joined(separator: " AND ")
                    var bindings = checks[position].values
                    if let pk = checks[position].object.objectID.primaryKey { sql += " AND \(layout.qualifiedKey()) <> ?"; bindings.append(.integer(pk)) }
                    checks[position].storedRows = try db.rows(sql, bindings).compactMap { row in row[0].integerValue.map { ($0, row[1].integerValue) } }
                }
                continue
            }
            let rowPlaceholders = "(" + Array(repeating: "?", count: columns.count + 1).joined(separator: ", ") + ")"
            let join = columns.enumerated().map { i, c in "t.\(c) = v.column\(i + 2)" }.joined(separator: " AND ")
            var start = 0
            while start < positions.count {
                let chunk = positions[start..<min(start + Self.uniquenessChunk, positions.count)]
                start += chunk.count
                let sql = "SELECT v.column1, \(layout.qualifiedKey("t")), \(layout.versionExpression(table: table, alias: "t")) FROM (VALUES "
                    + Array(repeating: rowPlaceholders, count: chunk.count).joined(separator: ", ")
                    + ") AS v JOIN \(q.quote(table)) AS t ON \(join)"
                var bindings: [Value] = []
                bindings.reserveCapacity(chunk.count * (columns.count + 1))
                for position in chunk {
                    bindings.append(.integer(Int64(position)))
                    bindings.append(contentsOf: checks[position].values)
                }
                for row in try db.rows(sql, bindings) {
                    guard let position = row[0].integerValue.map(Int.init), checks.indices.contains(position), let pk = row[1].integerValue else { continue }
                    checks[position].storedRows.append((pk, row[2].integerValue))
                }
            }
        }
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
