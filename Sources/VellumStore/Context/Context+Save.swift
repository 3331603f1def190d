import Foundation

extension ManagedObjectContext {
    /// Validates and writes every pending change in one SQLite transaction.
    /// All or nothing: on any error the store is unchanged and this context keeps
    /// its pending changes, so the caller can fix them and save again.
    /// Returns what was saved (empty when there was nothing to save).
    @discardableResult
    public func save() throws -> DidSave {
        let all = Array(changedObjects.values)
        let inserted = all.filter { $0.isInserted && !$0.isDeleted }.sorted { $0.objectID < $1.objectID }
        let deleted = all.filter { $0.isDeleted && !$0.isInserted }
        let updated = all.filter { !$0.isInserted && !$0.isDeleted && $0.hasChangedValues }
        guard !(inserted.isEmpty && deleted.isEmpty && updated.isEmpty) else {
            changedObjects.removeAll()
            pendingChangedKeys.removeAll()
            return DidSave(inserted: [], updated: [], deleted: [], changedKeys: [:], author: transactionAuthor, sequence: store.currentSaveSequence)
        }
        // Objects changed only through an inverse relationship may still be faults.
        for o in updated + deleted where o.isFault { try fulfillFault(o) }
        let validator = Validator(context: self)
        let failures = try validator.failures(for: inserted + updated)
        if failures.count == 1 { throw StoreError.validation(failures[0]) }
        if !failures.isEmpty { throw StoreError.multipleValidation(failures) }
        if let denial = try validator.denials(for: deleted) { throw denial }

        var writer = SaveWriter(context: self, inserted: inserted, updated: updated, deleted: deleted)
        let author = transactionAuthor
        try store.writeTransaction(author: author) { db in
            try writer.write(db)
        }
        return finishSave(writer)
    }

    /// After commit: IDs become permanent, snapshots become the saved values, observers hear of it.
    private func finishSave(_ writer: SaveWriter) -> DidSave {
        var keys: [ObjectID: Set<String>] = [:]
        var values: [ObjectID: [String: Value]] = [:]
        var insertedIDs: Set<ObjectID> = [], updatedIDs: Set<ObjectID> = [], deletedIDs: Set<ObjectID> = []
        for o in writer.inserted {
            registry[o.objectID] = nil
            if let pk = writer.assignedKeys[ObjectIdentifier(o)] {
                let permanent = ObjectID(entityName: o.entity.name, rootName: o.entity.rootName, key: .permanent(pk), storeIdentifier: store.identifier)
                if case .temporary(let uuid) = o.objectID.key { store.temporaryIDs.record(uuid, permanent) }
                o.objectID = permanent
            }
            if let existing = registry[o.objectID], existing !== o { existing.context = nil }
            registry[o.objectID] = o
            o.isInserted = false
            o.version = 1
            insertedIDs.insert(o.objectID)
        }
        for o in writer.inserted + writer.updated {
            if !insertedIDs.contains(o.objectID) {
                keys[o.objectID] = o.changedKeys
                updatedIDs.insert(o.objectID)
            }
            o.committed = nil
            for i in o.relations.indices where o.relations[i] != nil { o.relations[i]!.stored = o.relations[i]!.current }
            var v: [String: Value] = [:]
            for (i, a) in o.entity.attributes.enumerated() where !a.isTransient { v[a.name] = o.values[i] }
            values[o.objectID] = v
        }
        for (o, version) in writer.newVersions { o.version = version }
        for o in writer.deleted {
            registry[o.objectID] = nil
            o.relations = []
            deletedIDs.insert(o.objectID)
        }
        // Objects whose stored relationships changed as a side effect (inverse sides).
        for o in changedObjects.values where !o.isDeleted {
            for i in o.relations.indices where o.relations[i] != nil { o.relations[i]!.stored = o.relations[i]!.current }
            o.committed = nil
        }
        for o in writer.rolledBack { try? refresh(o, mergeChanges: false) }
        changedObjects.removeAll()
        pendingChangedKeys.removeAll()
        let event = DidSave(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, changedKeys: keys,
                            author: transactionAuthor, sequence: store.nextSaveSequence(), values: values)
        for body in saveObservers.values { body(event) }
        store.publish(event, from: self)
        return event
    }
}

