/// A context's uniquing table: at most one object per ID.
///
/// Saved objects (permanent IDs) live in one `PrimaryKeyTable` per root table,
/// found through the ID's interned root scope, so a lookup hashes one integer —
/// no names, no reference counting of ID parts — and tearing down 100,000
/// entries releases only the objects. Other IDs (temporary ones registered by
/// merges or conflict handling) fall back to a dictionary.
///
/// A class (the context holds one for its life), so lookups may update the
/// last-table cache without exclusive access to the context's property.
/// Not safe to mutate while iterating: `forEach` walks the tables in place;
/// `values` returns a copy for loops that change the registry.
final class ObjectRegistry {
    private var tables: [ObjectIdentifier: PrimaryKeyTable] = [:]
    private var others: [ObjectID: ManagedObject] = [:]
    /// The last table used: fetches and saves touch one root at a time.
    private var last: (root: ObjectIdentifier, table: PrimaryKeyTable)?

    var count: Int { tables.values.reduce(others.count) { $0 + $1.count } }
    var isEmpty: Bool { others.isEmpty && tables.values.allSatisfy { $0.count == 0 } }

    private func table(for scope: ObjectIDScope, creating: Bool) -> PrimaryKeyTable? {
        let root = scope.rootIdentity
        if let last, last.root == root { return last.table }
        var table = tables[root]
        if table == nil && creating {
            table = PrimaryKeyTable()
            tables[root] = table
        }
        if let table { last = (root, table) }
        return table
    }

    subscript(id: ObjectID) -> ManagedObject? {
        get {
            guard case .permanent(let pk) = id.key else { return others[id] }
            return table(for: id.scope, creating: false)?.object(for: pk)
        }
        set {
            guard case .permanent(let pk) = id.key else { others[id] = newValue; return }
            if let newValue {
                table(for: id.scope, creating: true)!.insert(newValue, for: pk)
            } else {
                table(for: id.scope, creating: false)?.remove(pk)
            }
        }
    }

    /// Sets the object for an ID and returns the one it replaced.
    @discardableResult
    func updateValue(_ object: ManagedObject, forKey id: ObjectID) -> ManagedObject? {
        guard case .permanent(let pk) = id.key else { return others.updateValue(object, forKey: id) }
        return table(for: id.scope, creating: true)!.insert(object, for: pk)
    }

    /// The table of saved objects of `scope`'s root, for loops over one table.
    func primaryKeyTable(for scope: ObjectIDScope) -> PrimaryKeyTable {
        table(for: scope, creating: true)!
    }

    /// Makes room for `additional` more objects of `scope`'s root without growing.
    func reserveCapacity(_ additional: Int, for scope: ObjectIDScope) {
        table(for: scope, creating: true)!.reserveCapacity(additional)
    }

    /// Calls `body` with every registered object; `body` must not change the registry.
    func forEach(_ body: (ManagedObject) throws -> Void) rethrows {
        for table in tables.values { try table.forEach(body) }
        for o in others.values { try body(o) }
    }

    /// Every registered object, copied (safe to change the registry while looping).
    var values: [ManagedObject] {
        var all: [ManagedObject] = []
        all.reserveCapacity(count)
        forEach { all.append($0) }
        return all
    }

    func removeAll() {
        tables = [:]
        others = [:]
        last = nil
    }
}

/// Objects by primary key, in pages of 64 consecutive keys.
///
/// Keys are mostly dense and ascending (SQLite row IDs), so a page is usually
/// full and holds objects that were created one after another: walking a page
/// touches neighbouring memory, which makes the final release of 100,000 objects
/// about three times faster than visiting them in hashed order. Pages are found
/// through `PageTable`, with the last page used cached for runs of nearby keys.
/// Lookup, insert and remove are O(1) expected.
final class PrimaryKeyTable {
    private(set) var count = 0
    private let pages = PageTable()
    private var lastNumber: Int64 = .min
    private var lastPage: ObjectPage?

    init() {}

    @inline(__always)
    private func page(_ number: Int64, creating: Bool) -> ObjectPage? {
        if number == lastNumber, let lastPage { return lastPage }
        var page = pages.page(number)
        if page == nil && creating {
            let created = ObjectPage()
            pages.insert(created, number)
            page = created
        }
        if let page { lastNumber = number; lastPage = page }
        return page
    }

    func object(for pk: Int64) -> ManagedObject? {
        page(pk >> ObjectPage.shift, creating: false)?.slots[Int(pk & ObjectPage.mask)]
    }

    /// Stores `object` under `pk`; returns the object it replaced.
    @discardableResult
    func insert(_ object: ManagedObject, for pk: Int64) -> ManagedObject? {
        let page = page(pk >> ObjectPage.shift, creating: true)!
        let i = Int(pk & ObjectPage.mask)
        let old = page.slots[i]
        page.slots[i] = object
        if old == nil { page.count += 1; count += 1 }
        return old
    }

    func remove(_ pk: Int64) {
        let number = pk >> ObjectPage.shift
        guard let page = page(number, creating: false) else { return }
        let i = Int(pk & ObjectPage.mask)
        guard page.slots[i] != nil else { return }
        page.slots[i] = nil
        page.count -= 1
        count -= 1
        if page.count == 0 {
            pages.remove(number)
            lastNumber = .min
            lastPage = nil
        }
    }

    /// Makes room for `additional` more objects with consecutive keys.
    func reserveCapacity(_ additional: Int) {
        pages.reserveCapacity(additional / ObjectPage.size + 1)
    }

    func forEach(_ body: (ManagedObject) throws -> Void) rethrows {
        try pages.forEach { page in
            for i in 0..<ObjectPage.size { if let o = page.slots[i] { try body(o) } }
        }
    }
}

/// 64 object slots for keys that differ only in their low six bits.
final class ObjectPage {
    static let shift: Int64 = 6
    static let size = 64
    static let mask: Int64 = 63
    var count = 0
    let slots = UnsafeMutablePointer<ManagedObject?>.allocate(capacity: ObjectPage.size)
    init() { slots.initialize(repeating: nil, count: Self.size) }
    deinit {
        slots.deinitialize(count: Self.size)
        slots.deallocate()
    }
}

/// Pages by page number: open addressing with linear probing and Fibonacci
/// hashing, at most half full, backward-shift deletion (no tombstones).
final class PageTable {
    private(set) var count = 0
    private var capacity = 0
    private var shift = 64
    private var keys: UnsafeMutablePointer<Int64>?
    private var pages: UnsafeMutablePointer<ObjectPage?>?

    deinit {
        guard let keys, let pages else { return }
        pages.deinitialize(count: capacity)
        pages.deallocate()
        keys.deallocate()
    }

    @inline(__always)
    private func slot(_ number: Int64) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: number) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    func page(_ number: Int64) -> ObjectPage? {
        guard let keys, let pages else { return nil }
        var i = slot(number)
        let mask = capacity - 1
        while let p = pages[i] {
            if keys[i] == number { return p }
            i = (i + 1) & mask
        }
        return nil
    }

    /// Adds a page for a number not in the table.
    func insert(_ page: ObjectPage, _ number: Int64) {
        if (count + 1) * 2 > capacity { resize(to: Swift.max(16, capacity * 2)) }
        let keys = keys!, pages = pages!
        let mask = capacity - 1
        var i = slot(number)
        while pages[i] != nil { i = (i + 1) & mask }
        keys[i] = number
        pages[i] = page
        count += 1
    }

    func remove(_ number: Int64) {
        guard let keys, let pages else { return }
        let mask = capacity - 1
        var i = slot(number)
        while pages[i] != nil && keys[i] != number { i = (i + 1) & mask }
        guard pages[i] != nil else { return }
        pages[i] = nil
        count -= 1
        // Shift later entries of the cluster back so every probe chain stays unbroken.
        var hole = i
        var j = (i + 1) & mask
        while pages[j] != nil {
            let home = slot(keys[j])
            // j may move into the hole unless its home lies cyclically in (hole, j].
            let stays = hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)
            if !stays {
                keys[hole] = keys[j]
                pages[hole] = pages[j].take()
                hole = j
            }
            j = (j + 1) & mask
        }
    }

    func reserveCapacity(_ additional: Int) {
        var needed = Swift.max(16, capacity)
        while (count + additional) * 2 > needed { needed *= 2 }
        if needed > capacity { resize(to: needed) }
    }

    func forEach(_ body: (ObjectPage) throws -> Void) rethrows {
        guard let pages else { return }
        for i in 0..<capacity { if let p = pages[i] { try body(p) } }
    }

    private func resize(to newCapacity: Int) {
        let oldKeys = keys, oldPages = pages, oldCapacity = capacity
        let newKeys = UnsafeMutablePointer<Int64>.allocate(capacity: newCapacity)
        let newPages = UnsafeMutablePointer<ObjectPage?>.allocate(capacity: newCapacity)
        newPages.initialize(repeating: nil, count: newCapacity)
        keys = newKeys
        pages = newPages
        capacity = newCapacity
        shift = 64 - newCapacity.trailingZeroBitCount
        let mask = newCapacity - 1
        guard let oldKeys, let oldPages else { return }
        for j in 0..<oldCapacity {
            guard let p = oldPages[j].take() else { continue }
            var i = slot(oldKeys[j])
            while newPages[i] != nil { i = (i + 1) & mask }
            newKeys[i] = oldKeys[j]
            newPages[i] = p
        }
        oldPages.deinitialize(count: oldCapacity)
        oldPages.deallocate()
        oldKeys.deallocate()
    }
}
