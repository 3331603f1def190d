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
        let changed = save.updated.union(save.inserted)
        let loaded = changed.compactMap { id in registry[id] }.filter { !$0.isInserted && !$0.isFault }
        // Faults stay faults; they just forget relationships that may have moved.
        for id in changed {
            if let o = registry[id], o.isFault, !o.relations.contains(where: { $0?.isChanged == true }) { o.relations = [] }
        }
        let (reload, gone) = try reloadKeepingLocalChanges(loaded)
        invalidated.formUnion(gone)
        notify(ObjectsDidChange(inserted: Set(save.inserted), updated: Set(save.updated).subtracting(invalidated),
                                deleted: Set(save.deleted), refreshed: Set(reload.map(\.objectID)).subtracting(invalidated),
                                invalidated: invalidated, changedKeys: save.changedKeys))
    }

    /// After a change whose details are unknown (a writer that records no history):
    /// reloads every registered, loaded object (local edits kept on top), drops the
    /// ones that are gone, and tells observers to refetch and diff. Only objects whose
    /// stored values differ are reported refreshed (what a list shows as updated).
    public func refreshAllFromStore() throws {
        let loaded = registry.values.filter { !$0.isInserted && !$0.isFault }
        let before = loaded.map { $0.committed ?? $0.values }
        let (reload, invalidated) = try reloadKeepingLocalChanges(loaded)
        var changed: Set<ObjectID> = []
        for (i, o) in reload.enumerated() where !invalidated.contains(o.objectID) && (o.committed ?? o.values) != before[i] {
            changed.insert(o.objectID)
        }
        var event = ObjectsDidChange(refreshed: changed, invalidated: invalidated)
        event.storeChangedExternally = true
        notify(event)
    }

    /// Reloads loaded objects from the store, one query per table, keeping each
    /// object's unsaved attribute edits on top of the new stored values (which
    /// become its snapshot). Unchanged relationships are forgotten and reload on
    /// access. Objects gone from the store are unregistered and returned as `gone`.
    /// A load that fails (the server away, the file unreadable) leaves every object as it
    /// was, unsaved edits included, so the reload can be tried again.
    func reloadKeepingLocalChanges(_ objects: [ManagedObject]) throws -> (reloaded: [ManagedObject], gone: Set<ObjectID>) {
        var localChanges: [ObjectIdentifier: [Int: Value]] = [:]
        let before = objects.map(LoadedState.init)
        for o in objects {
            localChanges[ObjectIdentifier(o)] = changedAttributeValues(o)
            if !o.relations.contains(where: { $0?.isChanged == true }) { o.relations = [] }
            o.isFault = true
            o.committed = nil
        }
        do {
            for (_, group) in Dictionary(grouping: objects, by: { $0.entity.rootName }) {
                try RowLoader(context: self).load(group)
            }
        } catch {
            for (o, state) in zip(objects, before) { state.restore(o) }
            throw error
        }
        var gone: Set<ObjectID> = []
        for o in objects {
            if o.isFault {
                registry[o.objectID] = nil
                gone.insert(o.objectID)
                continue
            }
            if let changes = localChanges[ObjectIdentifier(o)], !changes.isEmpty {
                o.committed = o.values
                for (i, v) in changes { o.setStoredValue(v, at: i) }
            }
        }
        return (objects, gone)
    }
}

/// What a reload replaces in a loaded object, to put back when the reload fails.
private struct LoadedState {
    let values: [Value]
    let committed: [Value]?
    let version: Int64
    let relations: [Relation?]

    init(_ o: ManagedObject) {
        (values, committed, version, relations) = (o.values, o.committed, o.version, o.relations)
    }

    func restore(_ o: ManagedObject) {
        o.values = values
        o.committed = committed
        o.version = version
        o.relations = relations
        o.isFault = false
    }
}
