import Foundation

/// Runs before an undo or redo changes anything: brings the objects it touches
/// up to date from the store (unsaved local changes kept on top) and checks that
/// each still holds what the action left — for a redo, what its undo left. A
/// change by another writer in between is a version conflict, as for a save:
/// undo never overwrites it silently. Keys the replay does not touch may have
/// changed freely; the save keeps those changes.
struct UndoReplayCheck {
    let context: ManagedObjectContext
    let changes: [UndoStack.Change]
    let resolve: (ObjectID) -> ObjectID

    /// Per object: attribute values the replay expects to find and the ones it writes.
    private struct Expectation {
        var found: [String: Value] = [:]
        var written: [String: Value] = [:]
        var relationshipsDiffer = false
        /// The replay deletes the object: finding it gone already is no conflict.
        var deletes = false
    }

    func run(overwriting: Bool) throws {
        let versionsRead = try refreshTouchedObjects()
        guard !overwriting else { return }
        var expected: [ObjectID: Expectation] = [:]
        var order: [ObjectID] = []
        var seen = Set<String>()
        var created = Set<ObjectID>()
        var restoring: [ObjectSnapshot] = []
        func first(_ id: ObjectID, _ key: String) -> Bool {
            if expected[id] == nil { expected[id] = Expectation(); order.append(id) }
            return seen.insert("\(id.uriString)|\(key)").inserted
        }
        for change in changes {
            let id = resolve(change.objectID)
            switch change {
            case .insert(let snapshot):
                // A restored key must be free: the save checks it (see SaveWriter).
                created.insert(id)
                restoring.append(snapshot)
            case .set(_, let key, let old, let new):
                guard !created.contains(id), first(id, key) else { continue }
                expected[id]!.found[key] = old
                expected[id]!.written[key] = new
            case .relate(_, let key, let old, _):
                guard !created.contains(id), first(id, key) else { continue }
                if try !holds(id, key, old.map(resolve)) { expected[id]!.relationshipsDiffer = true }
            case .delete(let snapshot):
                guard !created.contains(id) else { continue }
                _ = first(id, "")
                expected[id]!.deletes = true
                for (key, value) in snapshot.values where first(id, key) { expected[id]!.found[key] = value }
                for (key, ids) in snapshot.relationships where first(id, key) {
                    if try !holds(id, key, ids.map(resolve)) { expected[id]!.relationshipsDiffer = true }
                }
            }
        }
        // A restored object takes its related objects back. Where their side is a to-one,
        // that moves them: each must still be unrelated (as the delete left it) or
        // already point at the restored object, else another writer related it elsewhere.
        for snapshot in restoring {
            let restoredID = resolve(snapshot.objectID)
            for (_, inverse, destination) in toOneInverses(of: snapshot) where !created.contains(destination) {
                guard first(destination, inverse) else { continue }
                if try !holds(destination, inverse, []) && !holds(destination, inverse, [restoredID]) {
                    expected[destination]!.relationshipsDiffer = true
                }
            }
        }
        var conflicts: [MergeConflict] = []
        for id in order {
            let e = expected[id]!
            let object = try context.existingObjectIfPresent(id)
            if let object {
                let stored = try object.dictionaryOfValues()
                let differs = e.found.contains { key, value in
                    object.entity.attribute(named: key)?.isTransient == false && stored[key] != value
                }
                guard differs || e.relationshipsDiffer else { continue }
                conflicts.append(MergeConflict(kind: .version, objectID: id, oldVersion: versionsRead[id] ?? object.version,
                                               newVersion: object.version, objectSnapshot: stored.merging(e.written) { $1 },
                                               cachedSnapshot: stored.merging(e.found) { $1 }, persistedSnapshot: stored))
            } else if !e.deletes {
                conflicts.append(MergeConflict(kind: .version, objectID: id, oldVersion: versionsRead[id] ?? 0, newVersion: 0,
                                               objectSnapshot: e.written, cachedSnapshot: e.found, persistedSnapshot: nil))
            }
        }
        if !conflicts.isEmpty { throw StoreError.conflicts(conflicts) }
    }

    /// True if relationship `key` of the object holds `destinations` (in order, if ordered);
    /// an object gone from the store holds nothing.
    private func holds(_ id: ObjectID, _ key: String, _ destinations: [ObjectID]) throws -> Bool {
        guard let o = try context.existingObjectIfPresent(id), let i = o.entity.relationshipIndexByName[key] else { return destinations.isEmpty }
        let current = try context.relation(of: o, at: i).current.map(\.objectID)
        return o.entity.relationships[i].isOrdered ? current == destinations : Set(current) == Set(destinations)
    }

    /// For a snapshot about to be restored: each destination whose inverse is a to-one,
    /// with that inverse's name.
    private func toOneInverses(of snapshot: ObjectSnapshot) -> [(key: String, inverse: String, destination: ObjectID)] {
        guard let entity = context.model.entity(named: snapshot.entityName) else { return [] }
        var result: [(key: String, inverse: String, destination: ObjectID)] = []
        for (key, ids) in snapshot.relationships.sorted(by: { $0.key < $1.key }) {
            guard let r = entity.relationship(named: key),
                  context.model.entity(named: r.destination)?.relationship(named: r.inverse)?.isToMany == false else { continue }
            result += ids.map { (key, r.inverse, resolve($0)) }
        }
        return result
    }

    /// Reloads the loaded saved objects the replay touches (and those a restore relates
    /// to again); returns the versions they had.
    private func refreshTouchedObjects() throws -> [ObjectID: Int64] {
        var seen = Set<ObjectID>()
        var touched = changes.map { resolve($0.objectID) }
        for case .insert(let snapshot) in changes { touched += toOneInverses(of: snapshot).map(\.destination) }
        let loaded = touched.compactMap { id -> ManagedObject? in
            guard seen.insert(id).inserted, let o = context.registeredObject(for: id),
                  !o.isInserted, !o.isDeleted, !o.isFault else { return nil }
            return o
        }
        guard !loaded.isEmpty else { return [:] }
        let versions = Dictionary(loaded.map { ($0.objectID, $0.version) }, uniquingKeysWith: { a, _ in a })
        let (reloaded, gone) = try context.reloadKeepingLocalChanges(loaded)
        context.notify(ObjectsDidChange(deleted: gone, refreshed: Set(reloaded.map(\.objectID)).subtracting(gone), invalidated: gone))
        return versions
    }
}
