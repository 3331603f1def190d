import Foundation

/// What changed in a context: local edits, merges, refreshes. The results
/// controller consumes these to update its lists incrementally.
public struct ObjectsDidChange: Sendable {
    public var inserted: Set<ObjectID>
    public var updated: Set<ObjectID>
    public var deleted: Set<ObjectID>
    /// Objects whose values were reloaded from the store (merges, refresh).
    public var refreshed: Set<ObjectID>
    /// Objects that are gone from the context (deleted in the store).
    public var invalidated: Set<ObjectID>
    /// The whole context was reset; observers must refetch.
    public var invalidatedAll: Bool
    /// The store changed in ways not known object by object (a writer without
    /// history): registered objects were reloaded; lists should refetch and diff.
    public var storeChangedExternally: Bool = false
    /// Changed keys per updated or refreshed object, where known.
    public var changedKeys: [ObjectID: Set<String>]

    public init(inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = [],
                refreshed: Set<ObjectID> = [], invalidated: Set<ObjectID> = [], invalidatedAll: Bool = false,
                changedKeys: [ObjectID: Set<String>] = [:]) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.refreshed = refreshed
        self.invalidated = invalidated
        self.invalidatedAll = invalidatedAll
        self.changedKeys = changedKeys
    }

    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && deleted.isEmpty && refreshed.isEmpty && invalidated.isEmpty && !invalidatedAll && !storeChangedExternally
    }
}

extension ManagedObjectContext {
    /// Registers a callback for this context's `objectsDidChange` events.
    @discardableResult
    public func observeChanges(_ body: @escaping (ObjectsDidChange) -> Void) -> ObservationToken {
        let id = UUID()
        changeObservers[id] = body
        return ObservationToken(id: id)
    }

    /// Registers a callback for this context's saves.
    @discardableResult
    public func observeSaves(_ body: @escaping (DidSave) -> Void) -> ObservationToken {
        let id = UUID()
        saveObservers[id] = body
        return ObservationToken(id: id)
    }

    public func removeObserver(_ token: ObservationToken) {
        changeObservers[token.id] = nil
        saveObservers[token.id] = nil
    }

    func notify(_ event: ObjectsDidChange) {
        guard !event.isEmpty, !changeObservers.isEmpty else { return }
        for body in changeObservers.values { body(event) }
    }

    func notifyChange(inserted: [ManagedObject] = [], updated: [ManagedObject] = [], deleted: [ManagedObject] = [],
                      keys: [ObjectID: Set<String>] = [:]) {
        guard !changeObservers.isEmpty else { return }
        notify(ObjectsDidChange(inserted: Set(inserted.map(\.objectID)), updated: Set(updated.map(\.objectID)),
                                deleted: Set(deleted.map(\.objectID)), changedKeys: keys))
    }
}

/// Identifies an observer registration, for removal.
public struct ObservationToken: Sendable, Hashable {
    let id: UUID
}
