extension ManagedObjectContext {
    /// The objects of a fetch in batches of `batchSize`, handed to `body` as they
    /// are read from SQLite. After each batch the context forgets every object
    /// (`reset()`), so memory stays flat however many rows match: for printing
    /// and exporting. Unsaved changes could not be reflected, so a context with
    /// any is refused.
    public func forEachBatch(_ request: FetchRequest, batchSize: Int = 1000, _ body: ([ManagedObject]) throws -> Void) throws {
        guard !hasChanges else { throw StoreError.invalidOperation("a streamed fetch needs a context without unsaved changes") }
        var request = request
        request.fetchBatchSize = 0
        request.resultType = .objects
        let size = max(1, batchSize)
        var batch: [ManagedObject] = []
        batch.reserveCapacity(size)
        func flush() throws {
            try body(batch)
            batch.removeAll(keepingCapacity: true)
            reset()
        }
        try stepObjects(request, entity: try entity(request.entityName), pagingInSQL: true) { object in
            batch.append(object)
            guard batch.count >= size else { return false }
            try flush()
            return true
        }
        if !batch.isEmpty { try flush() }
    }
}
