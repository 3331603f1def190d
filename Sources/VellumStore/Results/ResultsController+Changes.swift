import Foundation

extension ResultsController {
    /// One changed object: where it was (old ID, position) and where it is now.
    struct Item {
        var oldID: ObjectID?
        var id: ObjectID
        var oldPos: Int?
        var oldPath: ResultsIndexPath?
        /// The section name before and after (outer nil: not there; inner nil: the nil section).
        var oldName: String??
        var keys: SortKeys?
        var newPos: Int?
        var newPath: ResultsIndexPath?
        var newName: String??
    }

    /// Whether `id` now belongs to the results, and its sort keys if so. A read or
    /// evaluation error is `.failed` (never taken for "not there"), unless it says
    /// the object is gone.
    func evaluate(_ id: ObjectID, gone: Set<ObjectID>) -> Evaluation {
        if gone.contains(id) || id.rootName != rootName { return .excluded }
        do {
            let o = try context.registeredObject(for: id) ?? context.object(with: id)
            if o.isDeleted || !allowedEntities.contains(o.entity.name) { return .excluded }
            try o.fireFault()
            if let p = fetchRequest.predicate, try !p.evaluate(o, variables: fetchRequest.variables) { return .excluded }
            var keys: [Value] = []
            for d in fetchRequest.sortDescriptors { keys.append(try QuerySortDescriptor.sortValue(of: d, o)) }
            return .included(SortKeys(keys))
        } catch where Self.meansAbsent(error) {
            return .excluded
        } catch {
            return .failed(StoreError(nesting: error))
        }
    }

    /// Applies changes to the index; returns the change set when `computeChanges`.
    func process(changed: Set<ObjectID>, gone: Set<ObjectID>, renames: [ObjectID: ObjectID], computeChanges: Bool) -> ResultsChangeSet? {
        // Objects whose key paths run through a changed related object.
        var all = changed
        if !dependencyChains.isEmpty {
            for id in changed where !gone.contains(id) {
                do {
                    guard let o = try context.registeredObject(for: id) ?? (id.rootName != rootName ? context.object(with: id) : nil),
                          !o.isDeleted else { continue }
                    if o.entity.rootName == rootName && dependencyChains.allSatisfy({ $0.allSatisfy { $0.destination != o.entity.name } }) { continue }
                    all.formUnion(try dependents(of: o))
                } catch where Self.meansAbsent(error) {
                    continue
                } catch {
                    report(error)   // the rows reached through it keep their places
                }
            }
        }
        // A renamed object is re-evaluated by its rename item below.
        all.subtract(renames.values)
        var items: [Item] = []
        for id in all where id.rootName == rootName {
            let old: ObjectID? = index.keys(of: id) != nil ? id : nil
            items.append(Item(oldID: old, id: id))
        }
        for (old, new) in renames where index.keys(of: old) != nil { items.append(Item(oldID: old, id: new)) }
        if items.isEmpty { return nil }
        // Load never-seen or faulted objects in one query per table.
        // Only a batching shortcut: an object it cannot load is loaded (or fails) again
        // in `evaluate`, which reports the error, so ignoring failures here loses nothing.
        let objects = items.compactMap { item -> ManagedObject? in
            if gone.contains(item.id) { return nil }
            return context.registeredObject(for: item.id) ?? (try? context.object(with: item.id))
        }
        try? context.loadFaults(objects)

        let oldSections = index.sections
        for i in items.indices {
            guard let old = items[i].oldID, let p = index.position(of: old) else { items[i].oldID = nil; continue }
            items[i].oldPos = p
            if computeChanges {
                items[i].oldPath = index.indexPath(forPosition: p)
                items[i].oldName = index.sectionName(at: p)
            }
        }
        for i in items.indices {
            switch evaluate(items[i].id, gone: gone) {
            case .included(let keys): items[i].keys = keys
            case .excluded: items[i].keys = nil
            case .failed(let error):
                // Unknown is not "deleted": the row stays where it was, and the reason is reported.
                items[i].keys = items[i].oldID.flatMap { index.keys(of: $0) }
                report(error)
                if Self.triesAgain(error, unreachable) { evaluateAgainLater(items[i].id) }
            }
        }
        // Remove old entries, last first; insert new ones, first first.
        for p in items.compactMap(\.oldPos).sorted(by: >) { index.entries.remove(at: p) }
        for item in items {
            if let old = item.oldID { index.removeKeys(for: old); temporaryIDs.remove(old) }
        }
        let order = items.indices.filter { items[$0].keys != nil }
            .sorted { index.compare(items[$0].keys!, items[$0].id, items[$1].keys!, items[$1].id) < 0 }
        for i in order {
            let keys = items[i].keys!
            index.insert(items[i].id, keys: keys)
            if items[i].id.isTemporary { temporaryIDs.insert(items[i].id) }
        }
        index.rebuildSections()
        guard computeChanges else { return nil }
        for i in order {
            let p = index.lowerBound(items[i].keys!, items[i].id)
            items[i].newPos = p
            items[i].newPath = index.indexPath(forPosition: p)
            items[i].newName = index.sectionName(at: p)
        }
        return changeSet(items: items, oldSections: oldSections, renames: renames)
    }
}
