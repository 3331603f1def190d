import Foundation

extension ManagedObjectContext {
    /// Brings a save made elsewhere into this context: changed objects that are
    /// loaded here are reloaded (their unsaved local changes stay on top), deleted
    /// ones are dropped, and observers get one `objectsDidChange` listing every
    /// inserted and updated ID of the save — registered here or not — so a results
    /// controller can admit objects it has never loaded.
    public func mergeChanges(from save: DidSave) throws {
        var invalidated: Set<ObjectID> = []
        for id in save.deleted {
            guard let o = registry[id] else { continue }
            registry[id] = nil
            changedObjects[ObjectIdentifier(o)] = nil
            o.isDeleted = true
            invalidated.insert(id)
            // Remove it from loaded relationships of other objects.
            for other in registry.values where !other.relations.isEmpty {
                for i in other.relations.indices where other.relations[i] != nil {
                    other.relations[i]!.current.removeAll { $0 === o }
                    other.relations[i]!.stored.removeAll { $0 === o }
                }
            }
            o.relations = []
        }
        // Reload loaded objects that changed, in one query per table.
        var reload: [ManagedObject] = []
        var localChanges: [ObjectIdentifier: [Int: Value]] = [:]
        for id in save.updated.union(save.inserted) {
            guard let o = registry[id], !o.isInserted else { continue }
            let keepRelations = o.relations.contains { $0?.isChanged == true }
            localChanges[ObjectIdentifier(o)] = changedAttributeValues(o)
            if !keepRelations { o.relations = [] }
            if !o.isFault {
                o.isFault = true
                o.committed = nil
                reload.append(o)
            }
        }
        for (_, group) in Dictionary(grouping: reload, by: { $0.entity.rootName }) {
            try RowLoader(context: self).load(group)
        }
        for o in reload {
            if o.isFault {
                // Gone from the store after all.
                registry[o.objectID] = nil
                invalidated.insert(o.objectID)
                continue
            }
            if let changes = localChanges[ObjectIdentifier(o)], !changes.isEmpty {
                o.committed = o.values
                for (i, v) in changes { o.values[i] = v }
            }
        }
        notify(ObjectsDidChange(inserted: save.inserted, updated: save.updated.subtracting(invalidated),
                                deleted: save.deleted, refreshed: Set(reload.map(\.objectID)).subtracting(invalidated),
                                invalidated: invalidated, changedKeys: save.changedKeys))
    }

    /// After a change whose details are unknown (a writer that records no history):
    /// reloads every registered, loaded object (local edits kept on top), drops the
    /// ones that are gone, and tells observers to refetch and diff.
    public func refreshAllFromStore() throws {
        var reload: [ManagedObject] = []
        var localChanges: [ObjectIdentifier: [Int: Value]] = [:]
        for o in registry.values where !o.isInserted && !o.isFault {
            localChanges[ObjectIdentifier(o)] = changedAttributeValues(o)
            if !o.relations.contains(where: { $0?.isChanged == true }) { o.relations = [] }
            o.isFault = true
            o.committed = nil
            reload.append(o)
        }
        for (_, group) in Dictionary(grouping: reload, by: { $0.entity.rootName }) {
            try RowLoader(context: self).load(group)
        }
        var invalidated: Set<ObjectID> = []
        for o in reload {
            if o.isFault { registry[o.objectID] = nil; invalidated.insert(o.objectID); continue }
            if let changes = localChanges[ObjectIdentifier(o)], !changes.isEmpty {
                o.committed = o.values
                for (i, v) in changes { o.values[i] = v }
            }
        }
        var event = ObjectsDidChange(refreshed: Set(reload.map(\.objectID)).subtracting(invalidated), invalidated: invalidated)
        event.storeChangedExternally = true
        notify(event)
    }
}
