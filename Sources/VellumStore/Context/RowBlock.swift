/// Attribute values of many fetched rows in one allocation.
///
/// A fetch of 100,000 objects would otherwise allocate (and later free) one
/// `[Value]` per object; rows are instead written back to back into blocks of
/// `RowBlock.capacity` values, and each object points at its row and keeps its
/// block alive. An object copies its row into its own array the first time it
/// is changed (`ManagedObject.values`' setter), so a block is never written after
/// it is filled. A block is freed when the last object using it goes.
final class RowBlock {
    /// Values per block (~96 KB): large enough that allocation is rare, small
    /// enough that a few surviving objects do not pin much memory.
    static let capacity = 4_096

    let base: UnsafeMutablePointer<Value>
    let size: Int
    /// Values initialized so far, from `base`.
    private(set) var used = 0

    init(size: Int = RowBlock.capacity) {
        self.size = size
        base = .allocate(capacity: size)
    }

    deinit {
        base.deinitialize(count: used)
        base.deallocate()
    }

    /// Room for a row of `width` values, or nil when the block is full. The caller
    /// must initialize all `width` values before the next call.
    func reserveRow(width: Int) -> UnsafeMutablePointer<Value>? {
        guard used + width <= size else { return nil }
        defer { used += width }
        return base + used
    }
}

/// Hands out rows for one fetch, starting a new block when the current one is full.
struct RowBlockWriter {
    private(set) var block = RowBlock()

    /// Room for a row of `width` values (initialized by the caller) and the block holding it.
    mutating func nextRow(width: Int) -> UnsafeMutablePointer<Value> {
        if let row = block.reserveRow(width: width) { return row }
        block = RowBlock(size: max(RowBlock.capacity, width))
        return block.reserveRow(width: width)!  // fits: the block is at least `width` long
    }
}
