import Foundation

extension ManagedObjectContext {
    /// The loaded relationship `index` of `object`: the stored destinations read
    /// from the store, adjusted by this context's unsaved changes to the inverse side.
    func relation(of object: ManagedObject, at index: Int) throws -> Relation {
        if object.relations.isEmpty { object.relations = Array(repeating: nil, count: object.entity.relationships.count) }
        if let r = object.relations[index] { return r }
        let relationship = object.entity.relationships[index]
        let mapping = store.layout.mapping(for: object.entity.name)!
        var stored: [ManagedObject] = []
        // A restored object (a pending insert with its old key) has no stored relationships.
        if let pk = object.objectID.primaryKey, !object.isInserted {
            switch mapping.relationshipStorage[index] {
            case .foreignKey:
                if object.isFault { try fulfillFault(object) }
                if let r = object.relations[index] { return r }
            case .inverseForeignKey(let table, let column, let position):
                let (layout, q) = (store.layout, store.layout.dialect)
                let order = position.map { "\(q.quote($0)), " } ?? ""
                let (condition, bound) = try inverseCondition(of: object, table: table, column: column, key: pk)
                let rows = try connection.rows("SELECT \(layout.qualifiedKey()), \(layout.entityExpression(table: table, alias: nil)) FROM \(q.quote(table)) WHERE \(condition) ORDER BY \(order)\(layout.qualifiedKey())", [bound])
                stored = rows.compactMap(objectForRow)
            case .joinTable(let table, let source, let target, let position):
                let destination = try entity(relationship.destination)
                let (layout, q) = (store.layout, store.layout.dialect)
                let order = position.map { "j.\(q.quote($0)), " } ?? ""
                let rows = try connection.rows("""
                    SELECT \(layout.qualifiedKey("t")), \(layout.entityExpression(table: layout.table(of: destination.name)!, alias: "t")) FROM \(q.quote(table)) AS j \
                    JOIN \(q.quote(layout.table(of: destination.name)!)) AS t ON \(layout.qualifiedKey("t")) = j.\(q.quote(target)) \
                    WHERE j.\(q.quote(source)) = ? ORDER BY \(order)\(layout.qualifiedKey("t"))
                    """, [.integer(pk)])
                stored = rows.compactMap(objectForRow)
            }
        }
        // Unsaved changes made from the other side while this side was not loaded.
        // None for a pending insert: linking to it loads this side first (see
        // `link`), so scanning every pending object (a bulk import's thousands,
        // once per new object) would find nothing.
        var current = stored
        for other in object.isInserted ? PendingObjects.none : pendingObjects where other !== object {
            guard other.entity.isKind(of: relationship.destination),
                  let inverseIndex = other.entity.relationshipIndexByName[relationship.inverse],
                  other.relations.count > inverseIndex, let inverse = other.relations[inverseIndex] else { continue }
            let nowLinked = inverse.current.contains { $0 === object }
            let wasLinked = inverse.stored.contains { $0 === object }
            if nowLinked && !current.contains(where: { $0 === other }) { current.append(other) }
            if !nowLinked && wasLinked { current.removeAll { $0 === other } }
        }
        let r = Relation(stored: stored, current: current)
        object.relations[index] = r
        if r.isChanged && !object.isInserted { changedObjects[ObjectIdentifier(object)] = object }
        return r
    }

    /// The condition finding the rows that refer to `object` through `column` of `table`,
    /// and the value to bind: the stored value of the column they refer to, when the object
    /// holds it (its committed value: unsaved changes are not in the rows), else its key.
    private func inverseCondition(of object: ManagedObject, table: String, column: String, key: Int64) throws -> (String, Value) {
        let condition = store.layout.inverseForeignKeyCondition(table: table, column: column)
        guard let (referenced, sql) = condition.byReferencedValue,
              let i = store.layout.mapping(for: object.entity.name)?.attributeColumns.firstIndex(of: referenced) else {
            return (condition.byKey, .integer(key))
        }
        if object.isFault { try fulfillFault(object) }
        let stored = object.committed?[i] ?? object.storedValue(at: i)
        return stored.isNull ? (condition.byKey, .integer(key)) : (sql, stored)
    }

    private func objectForRow(_ row: [Value]) -> ManagedObject? {
        guard let pk = row[0].integerValue, let name = row[1].stringValue, let e = store.model.entity(named: name) else { return nil }
        let id = store.objectID(entity: name, primaryKey: pk)
        return registry[id] ?? register(entity: e, id: id, isFault: true)
    }

    private func checkSameContext(_ objects: [ManagedObject], key: String, of owner: ManagedObject) throws {
        for o in objects where o.context !== self {
            throw StoreError.wrongContext(detail: "\(owner.entity.name).\(key): \(o.objectID.uriString) belongs to another context; fetch it here with object(with: id)")
        }
    }

    /// Sets relationship `index` of `object` to `destinations`, updating every inverse.
    func setRelation(of object: ManagedObject, at index: Int, to destinations: [ManagedObject]) throws {
        let relationship = object.entity.relationships[index]
        try checkSameContext(destinations, key: relationship.name, of: object)
        if object.isDeleted { throw StoreError.invalidOperation("\(object.objectID.uriString) is deleted; it cannot be changed") }
        for d in destinations {
            guard d.entity.isKind(of: relationship.destination) else {
                throw StoreError.validation(ValidationFailure(entity: object.entity.name, key: relationship.name,
                    reason: "expects \(relationship.destination), got \(d.entity.name)", objectURI: object.objectID.uriString))
            }
            if d.isDeleted { throw StoreError.invalidOperation("\(object.entity.name).\(relationship.name): \(d.objectID.uriString) is deleted") }
        }
        // Sets of identities: replacing a large to-many is O(n), not O(n²).
        var kept = Set<ObjectIdentifier>(minimumCapacity: destinations.count)
        let unique = destinations.filter { kept.insert(ObjectIdentifier($0)).inserted }
        let old = try relation(of: object, at: index).current
        let had = Set(old.lazy.map(ObjectIdentifier.init))
        let removed = old.filter { !kept.contains(ObjectIdentifier($0)) }
        let added = unique.filter { !had.contains(ObjectIdentifier($0)) }
        if removed.isEmpty && added.isEmpty && old.elementsEqual(unique, by: ===) { return }
        undoStack?.record(.relate(object.objectID, key: relationship.name, old: old.map(\.objectID), new: unique.map(\.objectID)))
        for d in removed { try unlink(d, inverseOf: relationship, from: object) }
        for d in added { try link(d, inverseOf: relationship, to: object) }
        object.relations[index]!.current = unique
        markChanged(object, key: relationship.name)
    }

    /// Appends `destination` to the to-many relationship `index` of `object`
    /// unless it is there, updating the inverse; the array grows in place.
    func addToRelation(of object: ManagedObject, at index: Int, _ destination: ManagedObject) throws {
        let relationship = object.entity.relationships[index]
        try checkSameContext([destination], key: relationship.name, of: object)
        if object.isDeleted { throw StoreError.invalidOperation("\(object.objectID.uriString) is deleted; it cannot be changed") }
        guard destination.entity.isKind(of: relationship.destination) else {
            throw StoreError.validation(ValidationFailure(entity: object.entity.name, key: relationship.name,
                reason: "expects \(relationship.destination), got \(destination.entity.name)", objectURI: object.objectID.uriString))
        }
        if destination.isDeleted { throw StoreError.invalidOperation("\(object.entity.name).\(relationship.name): \(destination.objectID.uriString) is deleted") }
        // Already there? Through a to-one inverse that is one comparison; otherwise a scan.
        let present: Bool
        if let inverseIndex = destination.entity.relationshipIndexByName[relationship.inverse],
           !destination.entity.relationships[inverseIndex].isToMany {
            _ = try relation(of: object, at: index)
            present = try relation(of: destination, at: inverseIndex).current.first === object
        } else {
            present = try relation(of: object, at: index).current.contains { $0 === destination }
        }
        if present { return }
        if let undoStack {
            let old = object.relations[index]!.current.map(\.objectID)
            undoStack.record(.relate(object.objectID, key: relationship.name, old: old, new: old + [destination.objectID]))
        }
        try link(destination, inverseOf: relationship, to: object)
        object.relations[index]!.current.append(destination)
        markChanged(object, key: relationship.name)
    }

    /// Adds `owner` to `destination`'s inverse of `relationship`.
    private func link(_ destination: ManagedObject, inverseOf relationship: RelationshipDescription, to owner: ManagedObject) throws {
        guard let inverseIndex = destination.entity.relationshipIndexByName[relationship.inverse] else { return }
        let inverse = destination.entity.relationships[inverseIndex]
        // Read what is needed, then let go of the array so the append below is in
        // place. `link` is only called for destinations newly added to `owner`'s
        // side, and both sides are kept in step, so a to-many inverse cannot hold
        // `owner` yet: searching it (once per insert of a bulk import) is skipped.
        let (first, hasOwner) = try { () throws -> (ManagedObject?, Bool) in
            let current = try self.relation(of: destination, at: inverseIndex).current
            return (current.first, !inverse.isToMany && current.first === owner)
        }()
        if !inverse.isToMany, let previous = first, previous !== owner {
            // The destination leaves its previous owner's relationship.
            try unlink(previous, inverseOf: inverse, from: destination, cascadeInverse: false)
            if let i = previous.entity.relationshipIndexByName[relationship.name] {
                _ = try self.relation(of: previous, at: i)
                previous.relations[i]!.current.removeAll { $0 === destination }
                markChanged(previous, key: relationship.name)
            }
            destination.relations[inverseIndex]!.current = []
        }
        // Appended in place: no copy of a to-many that grows by one per insert.
        if !hasOwner { destination.relations[inverseIndex]!.current.append(owner) }
        markChanged(destination, key: inverse.name)
    }

    /// Removes `owner` from `destination`'s inverse of `relationship`.
    private func unlink(_ destination: ManagedObject, inverseOf relationship: RelationshipDescription, from owner: ManagedObject, cascadeInverse: Bool = true) throws {
        guard let inverseIndex = destination.entity.relationshipIndexByName[relationship.inverse] else { return }
        _ = try self.relation(of: destination, at: inverseIndex)
        destination.relations[inverseIndex]!.current.removeAll { $0 === owner }
        markChanged(destination, key: relationship.inverse)
    }

    func markChanged(_ object: ManagedObject, key: String) {
        if !object.isInserted { changedObjects[ObjectIdentifier(object)] = object }  // inserts are tracked already
        guard !changeObservers.isEmpty else { return }
        if object.isInserted && !object.isDeleted { notifyChange(inserted: [object]) }
        else if !object.isDeleted { notifyChange(updated: [object], keys: [object.objectID: [key]]) }
    }

    // MARK: - Delete

    /// Deletes an object. Delete rules apply now: nullify removes it from inverse
    /// relationships, set-default links the destinations to their default instead,
    /// cascade deletes the destinations; deny is checked at save (the save fails
    /// naming the relationship if it still has objects).
    public func delete(_ object: ManagedObject) throws {
        guard object.context === self else {
            throw StoreError.wrongContext(detail: "\(object.objectID.uriString) belongs to another context")
        }
        if object.isDeleted { return }
        if object.isFault { try fulfillFault(object) }
        // Everything it relates to, before delete rules unlink it: undo puts it all back.
        if let undoStack, undoStack.isRecording { undoStack.record(.delete(try snapshot(of: object))) }
        object.isDeleted = true
        changedObjects[ObjectIdentifier(object)] = object
        for (i, relationship) in object.entity.relationships.enumerated() {
            switch relationship.deleteRule {
            case .deny:
                // Kept for the save-time check.
                _ = try relation(of: object, at: i)
            case .noAction:
                break
            case .nullify:
                let destinations = try relation(of: object, at: i).current
                for d in destinations { try unlink(d, inverseOf: relationship, from: object) }
            case .cascade:
                let destinations = try relation(of: object, at: i).current
                for d in destinations { try unlink(d, inverseOf: relationship, from: object) }
                for d in destinations where !d.isDeleted && !d.isMissing { try delete(d) }
            case .setDefault:
                for d in try relation(of: object, at: i).current { try setToDefault(d, inverseOf: relationship, from: object) }
            }
        }
        if object.isInserted {
            changedObjects[ObjectIdentifier(object)] = nil
        }
        notifyChange(deleted: [object])
    }

    /// `ON DELETE SET DEFAULT`: `destination`'s to-one that held `owner` (being deleted) holds
    /// the object its column's default names instead (`StoreLayout.defaultForeignKey`, or
    /// `defaultForeignKeyLookup` when the column holds another key than the rowid), or
    /// nothing where there is no default. Where the default is deleted too (`owner` itself)
    /// the link is left as it is: the row cannot take it, and SQLite refuses the delete.
    private func setToDefault(_ destination: ManagedObject, inverseOf relationship: RelationshipDescription, from owner: ManagedObject) throws {
        guard let index = destination.entity.relationshipIndexByName[relationship.inverse] else { return }
        let layout = store.layout
        var target: ManagedObject?
        if case .foreignKey(let column) = layout.mapping(for: destination.entity.name)!.relationshipStorage[index] {
            let table = layout.table(of: destination.entity.name)!
            var key = layout.defaultForeignKey(table: table, column: column)
            if key == nil, let lookup = layout.defaultForeignKeyLookup(table: table, column: column) {
                key = try connection.scalarInt(lookup.sql, [lookup.value])
            }
            if let key { target = try object(with: store.objectID(entity: destination.entity.relationships[index].destination, primaryKey: key)) }
        }
        if target?.isDeleted == true { return }
        try unlink(destination, inverseOf: relationship, from: owner)
        if let target, !destination.isDeleted, !destination.isMissing { try setRelation(of: destination, at: index, to: [target]) }
    }
}
