/// Values by primary key, in pages of 64 consecutive keys.
///
/// Keys are mostly dense (SQLite row IDs), so a page is usually full, and values
/// stored one after another sit together: walking a page touches neighbouring
/// memory (releasing 100,000 registered objects is about three times faster than
/// in hashed order), and a million entries take one slot each instead of a
/// hashed bucket. Pages are found through `PageDirectory`, with the last page
/// used cached for runs of nearby keys. Lookup, insert and remove are O(1)
/// expected. A class: callers that need value semantics `copy()` it.
final class PagedKeyTable<Element> {
    private(set) var count = 0
    private let pages = PageDirectory<Element>()
    private var lastNumber: Int64 = .min
    private var lastPage: KeyPage<Element>?

    init() {}

    /// An independent table with the same contents.
    func copy() -> PagedKeyTable<Element> {
        let c = PagedKeyTable<Element>()
        c.reserveCapacity(count)
        forEach { pk, v in c.insert(v, for: pk) }
        return c
    }

    @inline(__always)
    private func page(_ number: Int64, creating: Bool) -> KeyPage<Element>? {
        if number == lastNumber, let lastPage { return lastPage }
        var page = pages.page(number)
        if page == nil && creating {
            let created = KeyPage<Element>(number: number)
            pages.insert(created, number)
            page = created
        }
        if let page { lastNumber = number; lastPage = page }
        return page
    }

    func value(for pk: Int64) -> Element? {
        page(pk >> KeyPage<Element>.shift, creating: false)?.slots[Int(pk & KeyPage<Element>.mask)]
    }

    /// `value(for:)` through the caller's own last-page cache: reads nothing but the
    /// pages and writes nothing, so it may run on another thread beside this table's
    /// other reads (not beside a write: callers that share a table copy it before writing).
    func value(for pk: Int64, cache: inout KeyPage<Element>?) -> Element? {
        let number = pk >> KeyPage<Element>.shift
        if cache?.number != number { cache = pages.page(number) }
        return cache?.slots[Int(pk & KeyPage<Element>.mask)]
    }

    /// Stores `value` under `pk`; returns the value it replaced.
    @discardableResult
    func insert(_ value: Element, for pk: Int64) -> Element? {
        let page = page(pk >> KeyPage<Element>.shift, creating: true)!
        let i = Int(pk & KeyPage<Element>.mask)
        let old = page.slots[i].take()
        page.slots[i] = value
        if old == nil { page.count += 1; count += 1 }
        return old
    }

    func remove(_ pk: Int64) {
        let number = pk >> KeyPage<Element>.shift
        guard let page = page(number, creating: false) else { return }
        let i = Int(pk & KeyPage<Element>.mask)
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

    /// Makes room for `additional` more values with consecutive keys.
    func reserveCapacity(_ additional: Int) {
        pages.reserveCapacity(additional / KeyPage<Element>.size + 1)
    }

    /// Calls `body` with every key and value, a page at a time (keys ascending within a page).
    func forEach(_ body: (Int64, Element) throws -> Void) rethrows {
        try pages.forEach { page in
            for i in 0..<KeyPage<Element>.size {
                if let v = page.slots[i] { try body(page.number << KeyPage<Element>.shift | Int64(i), v) }
            }
        }
    }
}

/// 64 slots for keys that differ only in their low six bits.
final class KeyPage<Element> {
    static var shift: Int64 { 6 }
    static var size: Int { 64 }
    static var mask: Int64 { 63 }
    /// The keys' shared high bits (`key >> shift`).
    let number: Int64
    var count = 0
    let slots = UnsafeMutablePointer<Element?>.allocate(capacity: 64)
    init(number: Int64) {
        self.number = number
        slots.initialize(repeating: nil, count: Self.size)
    }
    deinit {
        slots.deinitialize(count: Self.size)
        slots.deallocate()
    }
}

/// Pages by page number: open addressing with linear probing and Fibonacci
/// hashing, at most half full, backward-shift deletion (no tombstones).
final class PageDirectory<Element> {
    private(set) var count = 0
    private var capacity = 0
    private var shift = 64
    private var keys: UnsafeMutablePointer<Int64>?
    private var pages: UnsafeMutablePointer<KeyPage<Element>?>?

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

    func page(_ number: Int64) -> KeyPage<Element>? {
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
    func insert(_ page: KeyPage<Element>, _ number: Int64) {
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

    func forEach(_ body: (KeyPage<Element>) throws -> Void) rethrows {
        guard let pages else { return }
        for i in 0..<capacity { if let p = pages[i] { try body(p) } }
    }

    private func resize(to newCapacity: Int) {
        let oldKeys = keys, oldPages = pages, oldCapacity = capacity
        let newKeys = UnsafeMutablePointer<Int64>.allocate(capacity: newCapacity)
        let newPages = UnsafeMutablePointer<KeyPage<Element>?>.allocate(capacity: newCapacity)
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
