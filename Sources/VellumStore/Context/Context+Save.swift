import Foundation

extension ManagedObjectContext {
    /// Validates and writes every pending change in one SQLite transaction.
    /// All or nothing: on any error the store is unchanged and this context keeps
    /// its pending changes, so the caller can fix them and save again.
    /// Returns what was saved (empty when there was nothing to save).
    @discardableResult
    public func save() throws -> DidSave {
        if let rejected = deferredErrors.first { deferredErrors.removeAll(); throw rejected }
        let all = Array(changedObjects.values)
        // Usually every pending insert is still one: then the list is shared, not copied
        // (a 100k-object save would otherwise hold a second list of them).
        let isPendingInsert = { (o: ManagedObject) in o.isInserted && !o.isDeleted && o.context === self }
        let inserted = insertedInOrder.allSatisfy(isPendingInsert) ? insertedInOrder : insertedInOrder.filter(isPendingInsert)
        let deleted = all.filter { $0.isDeleted && !$0.isInserted }
        var updated = all.filter { !$0.isInserted && !$0.isDeleted && $0.hasChangedValues }
        guard !(inserted.isEmpty && deleted.isEmpty && updated.isEmpty) else {
            changedObjects.removeAll()
            insertedInOrder.removeAll()
            return DidSave(inserted: [], updated: [], deleted: [], changedKeys: [:], author: transactionAuthor, sequence: store.currentSaveSequence)
        }
        // Objects changed only through an inverse relationship may still be faults;
        // one whose row is missing (a dangling reference's target) has nothing to write.
        for o in deleted where o.isFault { try fulfillFault(o) }
        updated.removeAll { $0.isFault && $0.isMissing }
        let validator = Validator(context: self)
        let failures = try validator.failures(for: updated.isEmpty ? inserted : inserted + updated)
        if failures.count == 1 { throw StoreError.validation(failures[0]) }
        if !failures.isEmpty { throw StoreError.multipleValidation(failures) }
        if let denial = try validator.denials(for: deleted) { throw denial }

        let author = transactionAuthor
        let write = { () throws -> SaveWriter in
            var writer = SaveWriter(context: self, inserted: inserted, updated: updated, deleted: deleted)
            try self.store.writeTransaction(author: author) { db in try writer.write(db) }
            return writer
        }
        // A server's serialization failure or deadlock rolled the transaction back and changed
        // nothing here: the same changes are written again (version checks still guard them).
        let writer = retriesServerConflicts ? try ServerConflictRetry.run(write).get() : try write()
        return finishSave(writer)
    }

    /// After commit: IDs become permanent, snapshots become the saved values, observers hear of it.
    private func finishSave(_ writer: SaveWriter) -> DidSave {
        var keys: [ObjectID: Set<String>] = [:]
        var insertedIDs = ObjectIDSet(), updatedIDs = ObjectIDSet(), deletedIDs = ObjectIDSet()
        var renamed = TemporaryIDMap.Batch(capacity: writer.inserted.count)
        var scope: (entity: ObjectIdentifier, scope: ObjectIDScope)?
        let initialVersion = store.layout.initialVersion
        for o in writer.inserted {
            if o.objectID.isTemporary, let pk = o.pendingKey {
                if scope?.entity != ObjectIdentifier(o.entity) {
                    scope = (ObjectIdentifier(o.entity), store.idScope(for: o.entity))
                    registry.reserveCapacity(writer.inserted.count, for: scope!.scope)
                }
                let permanent = ObjectID(scope: scope!.scope, key: .permanent(pk))
                renamed.append(counter: o.temporaryCounter, key: pk, scope: scope!.scope)
                o.objectID = permanent
                if let existing = registry.updateValue(o, forKey: permanent), existing !== o { existing.detachFromContext() }
            }
            o.isInserted = false
            o.version = initialVersion
            o.committed = nil
            if !o.relations.isEmpty { o.commitRelations() }
            insertedIDs.insert(o.objectID)
        }
        store.temporaryIDs.record(renamed)
        for (o, changed) in zip(writer.updated, writer.updatedKeys) {
            keys[o.objectID] = changed
            updatedIDs.insert(o.objectID)
            o.committed = nil
            if !o.relations.isEmpty { o.commitRelations() }
        }
        for (o, version) in writer.newVersions { o.version = version }
        for (o, values) in writer.readBack { o.values = values }
        for o in writer.deleted {
            registry[o.objectID] = nil
            o.relations = []
            deletedIDs.insert(o.objectID)
        }
        // Objects whose stored relationships changed as a side effect (inverse sides).
        if changedObjects.count > writer.updated.count + writer.deleted.count {
            for o in changedObjects.values where !o.isDeleted && !o.relations.isEmpty {
                o.commitRelations()
                o.committed = nil
            }
        }
        // The save has committed: an object whose reload fails here stays a fault (or keeps
        // its values) and reports the error when next read, so the save must not throw now.
        for o in writer.rolledBack { try? refresh(o, mergeChanges: false) }
        changedObjects.removeAll()
        insertedInOrder.removeAll()
        let event = DidSave(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, changedKeys: keys,
                            author: transactionAuthor, sequence: store.nextSaveSequence())
        for body in saveObservers.values { body(event) }
        store.publish(event, from: ObjectIdentifier(self))
        return event
    }
}

