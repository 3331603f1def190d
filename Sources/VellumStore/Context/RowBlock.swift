/// Attribute values of many objects' rows in one allocation.
///
/// A fetch or bulk insert of 100,000 objects would otherwise allocate (and later
/// free) one `[Value]` per object; rows are instead laid back to back in blocks,
/// and each object points at its own row (reading and writing it in place) and
/// keeps its block alive. A block is freed when the last object using it goes.
final class RowBlock: RowStorage {
    /// The largest block, in values (48 KB): large enough that allocation is rare,
    /// small enough that a few surviving objects do not pin much memory, and every
    /// row's offset fits `ManagedObject.rowOffset`'s 16 bits.
    static let capacity = 2_048

    let size: Int
    /// Values initialized so far, from `base`.
    private(set) var used = 0

    init(size: Int = RowBlock.capacity) {
        self.size = size
        super.init(base: UnsafeMutableRawPointer(UnsafeMutablePointer<Value>.allocate(capacity: size)))
    }

    private var values: UnsafeMutablePointer<Value> { base.assumingMemoryBound(to: Value.self) }

    deinit {
        values.deinitialize(count: used)
        values.deallocate()
    }

    /// Room for a row of `width` values, or nil when the block is full. The caller
    /// must initialize all `width` values before the next call.
    func reserveRow(width: Int) -> UnsafeMutablePointer<Value>? {
        guard used + width <= size else { return nil }
        defer { used += width }
        return values + used
    }
}

/// Hands out rows, starting a new block when the current one is full. Blocks
/// start small and double up to `RowBlock.capacity`, so a context that inserts
/// or fetches a handful of objects does not allocate 96 KB.
struct RowBlockWriter {
    private var current: RowBlock?
    private var nextSize = 64

    /// The block of the row `nextRow` last returned.
    var block: RowBlock { current! }

    /// Room for a row of `width` values (initialized by the caller); `block` holds it.
    mutating func nextRow(width: Int) -> UnsafeMutablePointer<Value> {
        if let row = current?.reserveRow(width: width) { return row }
        let size = max(nextSize, width)
        nextSize = min(RowBlock.capacity, nextSize * 2)
        let fresh = RowBlock(size: size)
        current = fresh
        return fresh.reserveRow(width: width)!  // fits: the block is at least `width` long
    }
}
