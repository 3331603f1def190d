/// The results index's entries, in order: object IDs, and beside them their sort
/// keys when the list is sorted. Two parallel `ChunkedArray`s rather than one of
/// (ID, keys) pairs, so an unsorted list (the browser's default over 50,000 rows)
/// spends no memory on keys.
///
/// IDs are kept compact: a saved object's primary key and the index of its scope in a
/// small table (a list's objects share one root table, so one scope or a few), 16 bytes
/// a row instead of an `ObjectID`'s 32; an unsaved object's ID is kept aside. The ID is
/// made again when read (`id(at:)`: the same scope object, so equal and as cheap to compare).
/// Insert and remove are O(√n) like `ChunkedArray`'s; reads are O(1).
struct IndexEntries: RandomAccessCollection {
    /// A saved object's primary key and scope; a temporary ID's number in `temporaries` (scope -1).
    private struct CompactID {
        var key: Int64
        var scope: Int32
    }
    private var ids = ChunkedArray<CompactID>()
    private var keys = ChunkedArray<SortKeys>()
    private var scopes: [ObjectIDScope] = []
    private var temporaries: [Int64: ObjectID] = [:]
    private var nextTemporary: Int64 = 0
    /// False for an unsorted list: `keys` stays empty.
    let storesKeys: Bool

    init(storesKeys: Bool) { self.storesKeys = storesKeys }

    var startIndex: Int { 0 }
    var endIndex: Int { ids.count }

    subscript(i: Int) -> ResultsIndex.Entry {
        ResultsIndex.Entry(id: id(at: i), keys: storesKeys ? keys[i] : SortKeys())
    }

    /// The ID at `i`, without making the entry (a binary search reads one side at a time).
    func id(at i: Int) -> ObjectID {
        let c = ids[i]
        return c.scope >= 0 ? ObjectID(scope: scopes[Int(c.scope)], key: .permanent(c.key)) : temporaries[c.key]!
    }

    /// The sort keys at `i` (none for an unsorted list), without copying the entry's ID.
    func keys(at i: Int) -> SortKeys { storesKeys ? keys[i] : SortKeys() }

    private mutating func compact(_ id: ObjectID) -> CompactID {
        guard case .permanent(let pk) = id.key else {
            nextTemporary += 1
            temporaries[nextTemporary] = id
            return CompactID(key: nextTemporary, scope: -1)
        }
        if let s = scopes.lastIndex(where: { $0 === id.scope }) { return CompactID(key: pk, scope: Int32(s)) }
        scopes.append(id.scope)
        return CompactID(key: pk, scope: Int32(scopes.count - 1))
    }

    mutating func append(_ e: ResultsIndex.Entry) {
        ids.append(compact(e.id))
        if storesKeys { keys.append(e.keys) }
    }

    mutating func insert(_ e: ResultsIndex.Entry, at i: Int) {
        ids.insert(compact(e.id), at: i)
        if storesKeys { keys.insert(e.keys, at: i) }
    }

    mutating func remove(at i: Int) {
        let c = ids.remove(at: i)
        if c.scope < 0 { temporaries[c.key] = nil }
        if storesKeys { keys.remove(at: i) }
    }
}
