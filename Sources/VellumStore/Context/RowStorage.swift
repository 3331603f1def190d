/// Memory holding objects' rows of attribute values. An object keeps its storage
/// alive and finds its row at an offset from `base` (see `ManagedObject.rowOffset`):
/// a `RowBlock` or `CompactRowBlock` shared by the objects of a fetch or bulk insert,
/// or a `ValueRow` of one object's own.
@usableFromInline
class RowStorage {
    @usableFromInline final let base: UnsafeMutableRawPointer

    init(base: UnsafeMutableRawPointer) { self.base = base }
}

/// One object's own row of values: after a change to a compact row, or values read
/// one object at a time.
final class ValueRow: RowStorage {
    let count: Int

    init(_ values: [Value]) {
        count = values.count
        let row = UnsafeMutablePointer<Value>.allocate(capacity: max(count, 1))
        row.initialize(from: values, count: count)
        super.init(base: UnsafeMutableRawPointer(row))
    }

    var values: UnsafeMutablePointer<Value> { base.assumingMemoryBound(to: Value.self) }

    deinit {
        values.deinitialize(count: count)
        values.deallocate()
    }
}
