import Foundation

extension ManagedObjectContext {
    /// Puts back a deleted object as `snapshot` saw it: the same ID (so the same
    /// primary key and URI), its values and its relationships, with the inverse
    /// sides on the other objects. Destinations that no longer exist are left out.
    /// An object deleted in this context and not yet saved is simply revived.
    ///
    /// Saved like an insert. New inserts never reuse a key, so the row's key is
    /// free unless another program took it; then the save fails naming the key.
    @discardableResult
    public func restore(_ snapshot: ObjectSnapshot) throws -> ManagedObject {
        let o = try restoredObject(snapshot)
        try restoreRelationships(of: o, from: snapshot)
        return o
    }

    /// The object of `snapshot` with its values, relationships not set yet (an
    /// undo restores several objects before relating them to each other).
    func restoredObject(_ snapshot: ObjectSnapshot) throws -> ManagedObject {
        let entity = try self.entity(snapshot.entityName)
        guard let pk = snapshot.objectID.primaryKey, snapshot.objectID.storeIdentifier == store.identifier else {
            // Never saved: there is no key to keep; it comes back as a new insert.
            return try insert(snapshot.entityName, values: snapshot.values)
        }
        let id = store.objectID(entity: entity.name, primaryKey: pk)
        if let existing = registry[id] {
            if existing.isDeleted && !existing.isInserted && changedObjects[ObjectIdentifier(existing)] != nil {
                return try revive(existing, snapshot)
            }
            if !existing.isDeleted, try existingObjectIfPresent(id) != nil {
                throw StoreError.invalidOperation("cannot restore \(id.uriString): the object exists")
            }
            registry[id] = nil   // a fault of the deleted row, or a restore deleted again before any save
        }
        if entity.isAbstract { throw StoreError.invalidOperation("entity \(entity.name) is abstract and cannot be instantiated") }
        var values = entity.defaultValues
        for (key, value) in snapshot.values {
            guard let i = entity.attributeIndexByName[key] else { throw StoreError.unknownKey(entity: entity.name, key: key) }
            do { values[i] = try value.coerced(to: entity.attributes[i].type) } catch {
                throw StoreError.validation(ValidationFailure(entity: entity.name, key: key, reason: "\(error)"))
            }
        }
        let o = ManagedObject(entity: entity, objectID: id, context: self, isFault: false)
        o.values = values
        // Pending inserts are kept in temporary-key order; a restored one takes the next place.
        o.temporaryCounter = TemporaryKey.next().1
        o.isInserted = true
        registry[id] = o
        insertedInOrder.append(o)
        undoStack?.record(.insert(ObjectSnapshot(objectID: id, entityName: entity.name, values: snapshot.values)))
        if !changeObservers.isEmpty { notifyChange(inserted: [o]) }
        return o
    }

    /// Undoes a delete not saved yet: the object is live again with the snapshot's values.
    private func revive(_ o: ManagedObject, _ snapshot: ObjectSnapshot) throws -> ManagedObject {
        o.isDeleted = false
        undoStack?.record(.insert(ObjectSnapshot(objectID: o.objectID, entityName: o.entity.name, values: snapshot.values)))
        try o.setValues(snapshot.values)
        if !changeObservers.isEmpty { notifyChange(inserted: [o]) }
        return o
    }

    /// Sets each relationship of `o` named in `snapshot` to the destinations that still exist.
    func restoreRelationships(of o: ManagedObject, from snapshot: ObjectSnapshot) throws {
        for (i, r) in o.entity.relationships.enumerated() {
            guard let ids = snapshot.relationships[r.name] else { continue }
            let destinations = try ids.compactMap { try existingObjectIfPresent($0) }
            try setRelation(of: o, at: i, to: destinations)
        }
    }

    /// The object for an ID, loaded; nil when it is deleted or gone from the store.
    func existingObjectIfPresent(_ id: ObjectID) throws -> ManagedObject? {
        do { return try existingObject(with: id) } catch StoreError.objectNotFound { return nil } catch StoreError.wrongContext {
            return nil   // an unsaved object's temporary ID that no object holds any more
        }
    }
}
