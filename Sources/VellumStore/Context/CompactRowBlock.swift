/// Compact rows (`CompactRow`) of many fetched objects in one allocation, as
/// `RowBlock` keeps `Value` rows: each object points at its own row and keeps the
/// block alive; the block is freed when the last object using it goes.
final class CompactRowBlock: RowStorage {
    /// The largest block (64 KB less a byte): allocation stays rare, a few surviving
    /// objects pin little memory, and every row's offset fits `ManagedObject.rowOffset`.
    static let capacity = 65_535

    let size: Int
    @exclusivity(unchecked) private var used = 0

    init(size: Int) {
        self.size = size
        super.init(base: .allocate(byteCount: max(size, 1), alignment: 8))
    }

    deinit { base.deallocate() }

    /// A copy of `bytes` in the block, or nil when they do not fit.
    func store(_ bytes: UnsafeRawBufferPointer) -> UnsafeMutableRawPointer? {
        guard used + bytes.count <= size else { return nil }
        let row = base + used
        if let source = bytes.baseAddress, bytes.count > 0 { row.copyMemory(from: source, byteCount: bytes.count) }
        used += bytes.count
        return row
    }
}

/// Keeps the rows of one fetch, starting a new block when the current one is full.
/// Blocks start at 1 KB and double up to `CompactRowBlock.capacity`, so a fetch of
/// a few objects does not allocate 64 KB; a row larger than that gets its own.
struct CompactRowWriter {
    let encoder = CompactRowEncoder()
    private var current: CompactRowBlock?
    private var nextSize = 1_024

    /// The block of the row `store()` last returned.
    var block: CompactRowBlock { current! }

    /// The encoder's row, copied into a block.
    mutating func store() -> UnsafeMutableRawPointer {
        let bytes = encoder.bytes
        if let row = current?.store(bytes) { return row }
        let fresh = CompactRowBlock(size: max(nextSize, bytes.count))
        nextSize = min(CompactRowBlock.capacity, nextSize * 2)
        current = fresh
        return fresh.store(bytes)!  // fits: the block is at least the row's size
    }
}
