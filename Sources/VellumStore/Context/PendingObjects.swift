/// A context's objects with unsaved changes, in one pass without copying:
/// changed and deleted saved objects, then pending inserts not deleted since.
struct PendingObjects: Sequence {
    let changed: Dictionary<ObjectIdentifier, ManagedObject>.Values
    let inserted: [ManagedObject]

    /// No objects.
    static var none: PendingObjects { PendingObjects(changed: [ObjectIdentifier: ManagedObject]().values, inserted: []) }

    var isEmpty: Bool { changed.isEmpty && !inserted.contains { Self.isLiveInsert($0) } }

    static func isLiveInsert(_ o: ManagedObject) -> Bool { o.isInserted && !o.isDeleted }

    struct Iterator: IteratorProtocol {
        var changed: Dictionary<ObjectIdentifier, ManagedObject>.Values.Iterator
        var inserted: IndexingIterator<[ManagedObject]>

        mutating func next() -> ManagedObject? {
            if let o = changed.next() { return o }
            while let o = inserted.next() {
                if PendingObjects.isLiveInsert(o) { return o }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(changed: changed.makeIterator(), inserted: inserted.makeIterator()) }
}
