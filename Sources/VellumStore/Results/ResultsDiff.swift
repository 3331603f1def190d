import Foundation

extension ResultsController {
    static func path(_ p: Int, in sections: [ResultsIndex.SectionRange]) -> ResultsIndexPath {
        var lo = 0, hi = sections.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].start <= p { lo = mid } else { hi = mid - 1 }
        }
        return ResultsIndexPath(item: p - sections[lo].start, section: lo)
    }

    /// Number of elements of the sorted array `a` below `x`.
    static func countBelow(_ a: [Int], _ x: Int) -> Int {
        var lo = 0, hi = a.count
        while lo < hi { let m = (lo + hi) / 2; if a[m] < x { lo = m + 1 } else { hi = m } }
        return lo
    }

    /// Longest chain increasing in `new` among `cands` (already ordered by old position), by weight.
    static func heaviestChain(_ cands: [(new: Int, weight: Int)], size: Int) -> Set<Int> {
        // Fenwick tree of (best weight, candidate index) over new positions.
        var tree = [(w: Int, i: Int)](repeating: (0, -1), count: size + 1)
        var prev = [Int](repeating: -1, count: cands.count), best = [Int](repeating: 0, count: cands.count)
        for (ci, c) in cands.enumerated() {
            var q = c.new, m: (w: Int, i: Int) = (0, -1)
            while q > 0 { if tree[q].w > m.w { m = tree[q] }; q -= q & -q }
            best[ci] = m.w + c.weight
            prev[ci] = m.i
            var u = c.new + 1
            while u <= size { if best[ci] > tree[u].w { tree[u] = (best[ci], ci) }; u += u & -u }
        }
        var result: Set<Int> = []
        var cur = best.indices.max { best[$0] < best[$1] } ?? -1
        while cur >= 0 { result.insert(cur); cur = prev[cur] }
        return result
    }

    func changeSet(items: [Item], oldSections: [ResultsIndex.SectionRange], renames: [ObjectID: ObjectID]) -> ResultsChangeSet {
        var c = ResultsChangeSet()
        let renamedOld = Set(items.compactMap { $0.oldID != $0.id ? $0.oldID : nil })
        c.renamedIDs = renames.filter { renamedOld.contains($0.key) }
        let newSections = index.sections
        let oldNames = Set(oldSections.map(\.name)), newNames = Set(newSections.map(\.name))
        let sectioned = sectionKeyPath != nil
        if sectioned {
            c.sectionDeletes = oldSections.enumerated().filter { !newNames.contains($0.element.name) }.map { .init(index: $0.offset, name: $0.element.name) }
            c.sectionInserts = newSections.enumerated().filter { !oldNames.contains($0.element.name) }.map { .init(index: $0.offset, name: $0.element.name) }
        }
        let oldChanged = items.compactMap(\.oldPos).sorted(), newChanged = items.compactMap(\.newPos).sorted()
        var kept: [Int] = []
        for (i, item) in items.enumerated() {
            switch (item.oldPos, item.newPos) {
            case (let o?, nil): c.objectDeletes.append(.init(id: item.id, indexPath: item.oldPath!)); _ = o
            case (nil, _?): c.objectInserts.append(.init(id: item.id, indexPath: item.newPath!))
            case (_?, _?): kept.append(i)
            default: break
            }
        }
        // Fast path: changed objects stay put when their rank among unchanged ones
        // and their section are the same; within equal ranks, the longest order-preserving chain.
        var stable: Set<Int> = []
        var groups: [Int: [Int]] = [:]
        for i in kept {
            let it = items[i]
            let rOld = it.oldPos! - Self.countBelow(oldChanged, it.oldPos!), rNew = it.newPos! - Self.countBelow(newChanged, it.newPos!)
            if it.oldName == it.newName && rOld == rNew { groups[rOld, default: []].append(i) }
        }
        for (_, g) in groups {
            let sorted = g.sorted { items[$0].oldPos! < items[$1].oldPos! }
            let chain = Self.heaviestChain(sorted.map { (items[$0].newPos!, 1) }, size: index.entries.count)
            for ci in chain { stable.insert(sorted[ci]) }
        }
        var conflict = false
        for i in kept where !stable.contains(i) && items[i].oldPath == items[i].newPath && items[i].oldName == items[i].newName { conflict = true }
        var moves: [(id: ObjectID, from: ResultsIndexPath, to: ResultsIndexPath, oldPos: Int, newPos: Int)] = []
        var updates: [Int] = []
        if !conflict {
            for i in kept {
                if stable.contains(i) { updates.append(i) } else {
                    moves.append((items[i].id, items[i].oldPath!, items[i].newPath!, items[i].oldPos!, items[i].newPos!))
                }
            }
        } else {
            // Rare: a changed object keeps its index path while unchanged ones pass it.
            // Keep every same-place object stable and the heaviest consistent chain around them (O(n log n)).
            var all: [(id: ObjectID, oldPos: Int, newPos: Int, sameSection: Bool, item: Int?)] = []
            let changedIDs = Set(items.map(\.id))
            var ptr = 0, kRank = 0
            for (j, id) in index.entries.enumerated() where !changedIDs.contains(id) {
                while ptr < oldChanged.count && oldChanged[ptr] <= kRank + ptr { ptr += 1 }
                all.append((id, kRank + ptr, j, true, nil))
                kRank += 1
            }
            for i in kept { all.append((items[i].id, items[i].oldPos!, items[i].newPos!, items[i].oldName == items[i].newName, i)) }
            all.sort { $0.oldPos < $1.oldPos }
            let eligible = all.indices.filter { all[$0].sameSection }
            let n = index.entries.count
            let weights = eligible.map { k -> (new: Int, weight: Int) in
                let same = Self.path(all[k].oldPos, in: oldSections) == Self.path(all[k].newPos, in: newSections)
                return (all[k].newPos, same ? n + 1 : 1)
            }
            let chain = Set(Self.heaviestChain(weights, size: n).map { eligible[$0] })
            for k in all.indices {
                if chain.contains(k) { if let i = all[k].item { updates.append(i) }; continue }
                moves.append((all[k].id, Self.path(all[k].oldPos, in: oldSections), Self.path(all[k].newPos, in: newSections), all[k].oldPos, all[k].newPos))
            }
        }
        var diff: [CollectionDifference<ObjectID>.Change] = []
        for m in moves {
            if m.from == m.to {
                // Changed section but landed on an equal index path: delete + insert, never a move in place.
                c.objectDeletes.append(.init(id: m.id, indexPath: m.from))
                c.objectInserts.append(.init(id: m.id, indexPath: m.to))
                diff.append(.remove(offset: m.oldPos, element: m.id, associatedWith: nil))
                diff.append(.insert(offset: m.newPos, element: m.id, associatedWith: nil))
            } else {
                c.objectMoves.append(.init(id: m.id, from: m.from, to: m.to))
                diff.append(.remove(offset: m.oldPos, element: m.id, associatedWith: m.newPos))
                diff.append(.insert(offset: m.newPos, element: m.id, associatedWith: m.oldPos))
            }
        }
        for i in updates { c.objectUpdates.append(.init(id: items[i].id, indexPath: items[i].newPath!)) }
        for i in items.indices {
            let it = items[i]
            if let o = it.oldPos, it.newPos == nil { diff.append(.remove(offset: o, element: it.id, associatedWith: nil)) }
            if let n = it.newPos, it.oldPos == nil { diff.append(.insert(offset: n, element: it.id, associatedWith: nil)) }
        }
        c.difference = CollectionDifference(diff) ?? c.difference
        c.objectDeletes.sort { $0.indexPath > $1.indexPath }
        c.objectInserts.sort { $0.indexPath < $1.indexPath }
        c.objectMoves.sort { $0.to < $1.to }
        c.objectUpdates.sort { $0.indexPath < $1.indexPath }
        return c
    }
}
