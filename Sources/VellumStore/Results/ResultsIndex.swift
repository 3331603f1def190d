import Foundation

/// The controller's ordered index: object IDs sorted by their sort-key values exactly
/// as `QuerySortDescriptor.compare` (ties by ObjectID), each ID's keys filed by ID,
/// plus the section layout. Holds no managed objects.
struct ResultsIndex {
    struct SectionRange {
        /// nil for objects whose section key is nil (distinct from "").
        var name: String?
        var start: Int
        var count: Int
    }

    let descriptors: [QuerySortDescriptor]
    let sectioned: Bool
    /// The IDs in order. Every entry's keys are filed (`setKeys`) before the next search.
    var entries = IndexEntries()
    /// Sort keys by ID, the one place they are kept: read by position through the entry's
    /// ID (`keys(at:)`) in a binary search, by ID to find an entry. Saved objects by primary
    /// key (a controller's objects share one root table), unsaved inserts by ID.
    /// A paged table rather than a dictionary: a million entries take a third of
    /// the memory and fill without hashing. Without sort descriptors the order is
    /// by ID alone, so no keys are kept.
    private var keysByPrimaryKey = PagedKeyTable<SortKeys>()
    private var keysByTemporaryID: [ObjectID: SortKeys] = [:]
    var storesKeys: Bool { !descriptors.isEmpty }
    var sections: [SectionRange] = []

    init(descriptors: [QuerySortDescriptor], sectioned: Bool) {
        self.descriptors = descriptors
        self.sectioned = sectioned
    }

    /// Adds an entry at the end, filing its keys (the caller appends in order).
    mutating func append(_ id: ObjectID, keys: SortKeys) {
        entries.append(id)
        setKeys(keys, for: id)
    }

    /// Adds an entry where its keys sort, filing them. O(log n) to find, O(√n) to insert.
    mutating func insert(_ id: ObjectID, keys: SortKeys) {
        entries.insert(id, at: lowerBound(keys, id))
        setKeys(keys, for: id)
    }

    /// The sort keys of the entry at `p` (none for an unsorted list), read from the key
    /// table without writing it: another thread may read a copy of the index sharing it.
    func keys(at p: Int) -> SortKeys {
        guard storesKeys else { return SortKeys() }
        let filed: SortKeys?
        if let pk = entries.primaryKey(at: p) {
            var page: KeyPage<SortKeys>?
            filed = keysByPrimaryKey.value(for: pk, cache: &page)
        } else {
            filed = keysByTemporaryID[entries.id(at: p)]
        }
        guard let filed else { preconditionFailure("results index: entry \(p) has no filed sort keys") }
        return filed
    }

    func compare(_ a: SortKeys, _ aID: ObjectID, _ b: SortKeys, _ bID: ObjectID) -> Int {
        let c = compareKeys(a, b)
        if c != 0 { return c }
        return aID < bID ? -1 : (bID < aID ? 1 : 0)
    }

    /// The descriptors' order of two entries' sort keys alone (0: tied, the IDs decide).
    private func compareKeys(_ a: SortKeys, _ b: SortKeys) -> Int {
        for (i, d) in descriptors.enumerated() {
            var c = ValueOrdering.compare(a[i], b[i], comparison: d.comparison)
            if !d.ascending { c = -c }
            if c != 0 { return c }
        }
        return 0
    }

    /// The first position whose entry is not ordered before (keys, id).
    func lowerBound(_ keys: SortKeys, _ id: ObjectID) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isOrderedBefore(mid, keys, id) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// `compare(keys(at: p), entries[p], keys, id) < 0`, reading the entry's ID
    /// only when the keys tie: no entry is made and no ID copied (each copy of an ID
    /// retains its scope) for the ~20 steps of a search in a million rows.
    private func isOrderedBefore(_ p: Int, _ keys: SortKeys, _ id: ObjectID) -> Bool {
        let c = compareKeys(self.keys(at: p), keys)
        if c != 0 { return c < 0 }
        return entries.id(at: p) < id
    }

    private func storedKeys(_ id: ObjectID) -> SortKeys? {
        if case .permanent(let pk) = id.key { return keysByPrimaryKey.value(for: pk) }
        return keysByTemporaryID[id]
    }

    /// The sort keys a saved object (by primary key) is filed under, read without
    /// writing anything (`PagedKeyTable.value(for:cache:)`): a copy of the index on
    /// another thread reads it so while this one goes on (it copies the table before a write).
    func filedKeys(primaryKey pk: Int64, cache: inout KeyPage<SortKeys>?) -> SortKeys? {
        keysByPrimaryKey.value(for: pk, cache: &cache)
    }

    /// How many saved objects have their keys filed (all of them in a sorted list).
    var filedPrimaryKeyCount: Int { keysByPrimaryKey.count }

    /// The key table, copied first if another index shares it (value semantics).
    private mutating func uniqueKeyTable() -> PagedKeyTable<SortKeys> {
        if !isKnownUniquelyReferenced(&keysByPrimaryKey) { keysByPrimaryKey = keysByPrimaryKey.copy() }
        return keysByPrimaryKey
    }

    func position(of id: ObjectID) -> Int? {
        guard let keys = storesKeys ? storedKeys(id) : SortKeys() else { return nil }
        let p = lowerBound(keys, id)
        return p < entries.count && entries.id(at: p) == id ? p : nil
    }

    /// The sort keys an entry was filed under, or nil when the ID is not in the index.
    func keys(of id: ObjectID) -> SortKeys? {
        if storesKeys { return storedKeys(id) }
        return position(of: id) == nil ? nil : SortKeys()
    }

    mutating func setKeys(_ keys: SortKeys, for id: ObjectID) {
        guard storesKeys else { return }
        if case .permanent(let pk) = id.key { uniqueKeyTable().insert(keys, for: pk) } else { keysByTemporaryID[id] = keys }
    }

    mutating func removeKeys(for id: ObjectID) {
        guard storesKeys else { return }
        if case .permanent(let pk) = id.key { uniqueKeyTable().remove(pk) } else { keysByTemporaryID[id] = nil }
    }

    mutating func reserveKeys(_ n: Int) {
        if storesKeys { uniqueKeyTable().reserveCapacity(n) }
    }

    static func sectionName(_ v: Value) -> String? {
        switch v {
        case .null: return nil
        case .string(let s): return s
        default: return "\(v)"
        }
    }

    func sectionName(at i: Int) -> String? { sectioned ? Self.sectionName(keys(at: i)[0]) : "" }

    /// Rebuilds section ranges by binary search over runs of equal names: O(s log n).
    mutating func rebuildSections() {
        sections.removeAll(keepingCapacity: true)
        guard sectioned else {
            sections = [SectionRange(name: "", start: 0, count: entries.count)]
            return
        }
        var start = 0
        while start < entries.count {
            let name = sectionName(at: start)
            var lo = start + 1, hi = entries.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sectionName(at: mid) == name { lo = mid + 1 } else { hi = mid }
            }
            sections.append(SectionRange(name: name, start: start, count: lo - start))
            start = lo
        }
    }

    /// Sections of the given names and sizes, in order: a first page's, whose sizes were
    /// counted (they reach past the entries indexed so far). Neighbours of equal names are
    /// one section, as `rebuildSections` makes them (two texts SQLite orders apart, such
    /// as composed and decomposed é, can have names Swift calls equal).
    mutating func setSections(_ sizes: [(name: String?, count: Int)]) {
        sections = []
        var start = 0
        for size in sizes {
            if let last = sections.indices.last, sections[last].name == size.name {
                sections[last].count += size.count
            } else {
                sections.append(SectionRange(name: size.name, start: start, count: size.count))
            }
            start += size.count
        }
    }

    func indexPath(forPosition p: Int) -> ResultsIndexPath {
        var lo = 0, hi = sections.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sections[mid].start <= p { lo = mid } else { hi = mid - 1 }
        }
        return ResultsIndexPath(item: p - sections[lo].start, section: lo)
    }

    func position(of indexPath: ResultsIndexPath) -> Int? {
        guard sections.indices.contains(indexPath.section), indexPath.item >= 0,
              indexPath.item < sections[indexPath.section].count else { return nil }
        return sections[indexPath.section].start + indexPath.item
    }

    var snapshot: ResultsSnapshot {
        ResultsSnapshot(sections: sections.map { s in
            ResultsSection(name: s.name, objectIDs: Array(entries[s.start..<(s.start + s.count)]))
        })
    }
}
