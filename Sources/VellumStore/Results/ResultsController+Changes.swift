import Foundation

extension ResultsController {
    /// One changed object: where it was (old ID, position) and where it is now.
    struct Item {
        var oldID: ObjectID?
        var id: ObjectID
        var oldPos: Int?
        var oldPath: ResultsIndexPath?
        var oldName: String?
        var keys: SortKeys?
        var newPos: Int?
        var newPath: ResultsIndexPath?
        var newName: String?
    }

    /// The sort keys of `id` if it now belongs to the results, else nil.
    func evaluate(_ id: ObjectID, gone: Set<ObjectID>) -> SortKeys? {
        if gone.contains(id) || id.rootName != rootName { return nil }
        guard let o = context.registeredObject(for: id) ?? (try? context.object(with: id)) else { return nil }
        if o.isDeleted || !allowedEntities.contains(o.entity.name) { return nil }
        if o.isFault { try? o.fireFault() }
        if o.isFault { return nil }
        if let p = fetchRequest.predicate {
            guard (try? p.evaluate(o, variables: fetchRequest.variables)) == true else { return nil }
        }
        var keys: [Value] = []
        for d in fetchRequest.sortDescriptors {
            guard let v = try? KeyPathComparison.value(d.keyPath[...], o) else { return nil }
            keys.append(v)
        }
        return SortKeys(keys)
    }

    /// Applies changes to the index; returns the change set when `computeChanges`.
    func process(changed: Set<ObjectID>, gone: Set<ObjectID>, renames: [ObjectID: ObjectID], computeChanges: Bool) -> ResultsChangeSet? {
        // Objects whose key paths run through a changed related object.
        var all = changed
        if !dependencyChains.isEmpty {
            for id in changed where !gone.contains(id) {
                guard let o = context.registeredObject(for: id) ?? (id.rootName != rootName ? try? context.object(with: id) : nil),
                      !o.isDeleted else { continue }
                if o.entity.rootName == rootName && dependencyChains.allSatisfy({ $0.allSatisfy { $0.destination != o.entity.name } }) { continue }
                all.formUnion(dependents(of: o))
            }
        }
        var items: [Item] = []
        for id in all where id.rootName == rootName {
            let old: ObjectID? = index.keys(of: id) != nil ? id : nil
            items.append(Item(oldID: old, id: id))
        }
        for (old, new) in renames where index.keys(of: old) != nil { items.append(Item(oldID: old, id: new)) }
        if items.isEmpty { return nil }
        // Load never-seen or faulted objects in one query per table.
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
        for i in items.indices { items[i].keys = evaluate(items[i].id, gone: gone) }
        // Remove old entries, last first; insert new ones, first first.
        for p in items.compactMap(\.oldPos).sorted(by: >) { index.entries.remove(at: p) }
        for item in items {
            if let old = item.oldID { index.removeKeys(for: old); temporaryIDs.remove(old) }
        }
        let order = items.indices.filter { items[$0].keys != nil }
            .sorted { index.compare(items[$0].keys!, items[$0].id, items[$1].keys!, items[$1].id) < 0 }
        for i in order {
            let keys = items[i].keys!
            index.entries.insert(ResultsIndex.Entry(id: items[i].id, keys: keys), at: index.lowerBound(keys, items[i].id))
            index.setKeys(keys, for: items[i].id)
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
