/// The results index's entries, in order: object IDs, and beside them their sort
/// keys when the list is sorted. Two parallel `ChunkedArray`s rather than one of
/// (ID, keys) pairs, so an unsorted list (the browser's default over 50,000 rows)
/// spends no memory on keys: 32 bytes per row instead of 56.
/// Insert and remove are O(√n) like `ChunkedArray`'s; reads are O(1).
struct IndexEntries: RandomAccessCollection {
    private var ids = ChunkedArray<ObjectID>()
    private var keys = ChunkedArray<SortKeys>()
    /// False for an unsorted list: `keys` stays empty.
    let storesKeys: Bool

    init(storesKeys: Bool) { self.storesKeys = storesKeys }

    var startIndex: Int { 0 }
    var endIndex: Int { ids.count }

    subscript(i: Int) -> ResultsIndex.Entry {
        ResultsIndex.Entry(id: ids[i], keys: storesKeys ? keys[i] : SortKeys())
    }

    /// The ID at `i`, without making the entry (a binary search reads one side at a time).
    func id(at i: Int) -> ObjectID { ids[i] }

    /// The sort keys at `i` (none for an unsorted list), without copying the entry's ID.
    func keys(at i: Int) -> SortKeys { storesKeys ? keys[i] : SortKeys() }

    mutating func append(_ e: ResultsIndex.Entry) {
        ids.append(e.id)
        if storesKeys { keys.append(e.keys) }
    }

    mutating func insert(_ e: ResultsIndex.Entry, at i: Int) {
        ids.insert(e.id, at: i)
        if storesKeys { keys.insert(e.keys, at: i) }
    }

    mutating func remove(at i: Int) {
        ids.remove(at: i)
        if storesKeys { keys.remove(at: i) }
    }
}
