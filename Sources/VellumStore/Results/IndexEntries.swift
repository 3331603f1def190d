/// The results index's entries, in order: object IDs. Their sort keys are kept once,
/// in the index's key table by primary key (`ResultsIndex.keys(at:)`), not a second
/// time beside each ID: a million sorted rows took 32 MB more and an append each.
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
    private var scopes: [ObjectIDScope] = []
    private var temporaries: [Int64: ObjectID] = [:]
    private var nextTemporary: Int64 = 0

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { ids.count }

    subscript(i: Int) -> ObjectID { id(at: i) }

    /// The ID at `i`.
    func id(at i: Int) -> ObjectID {
        let c = ids[i]
        return c.scope >= 0 ? ObjectID(scope: scopes[Int(c.scope)], key: .permanent(c.key)) : temporaries[c.key]!
    }

    /// The primary key of a saved object at `i` (nil for an unsaved one), without making
    /// its ID (each ID made retains its scope): a binary search reads ~20 of them.
    func primaryKey(at i: Int) -> Int64? {
        let c = ids[i]
        return c.scope >= 0 ? c.key : nil
    }

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

    mutating func append(_ id: ObjectID) {
        ids.append(compact(id))
    }

    mutating func insert(_ id: ObjectID, at i: Int) {
        ids.insert(compact(id), at: i)
    }

    mutating func remove(at i: Int) {
        let c = ids.remove(at: i)
        if c.scope < 0 { temporaries[c.key] = nil }
    }
}
