import Foundation

/// `performFetch(firstPage:knownCount:)` with its reading done elsewhere: `prepareFetch`
/// reads the first page (or, for a short list, every row) and the count on another
/// context — a reader of its own, off the main thread — and `install` makes what it read
/// the controller's list on the controller's queue, in one assignment. Changes the
/// controller's context heard while the reader worked are handed to `install` and applied
/// on top (in memory, silently: the list is new), so whatever snapshot the reader saw,
/// each changed object ends where its current values put it.
public struct PreparedFetch: @unchecked Sendable {
    // Unchecked: built on the reader's queue, then handed over whole and read only on the
    // controller's queue (the reader keeps no reference).
    let index: ResultsIndex
    let partialCount: Int?

    /// How many rows the request matched (all of them, even when only a first page is read).
    public var count: Int { partialCount ?? index.entries.count }
}

extension ResultsController {
    /// Reads on `reader` what `performFetch(firstPage:knownCount:)` reads for `request`;
    /// when the list has at most `completeUpTo` rows, all of them (no first page).
    public static func prepareFetch(_ reader: ManagedObjectContext, _ request: FetchRequest, sectionKeyPath: String?,
                                    firstPage: Int, knownCount: Int? = nil, completeUpTo: Int = 0) throws(StoreError) -> PreparedFetch {
        try StoreError.nesting {
            try checkSectioning(request, sectionKeyPath)
            let sectioned = sectionKeyPath != nil
            var (index, partial) = try readFirstPage(reader, request, sectioned: sectioned, firstPage: firstPage, knownCount: knownCount)
            if let n = partial, n <= completeUpTo {
                index = try buildIndex(reader, request, sectioned: sectioned)
                partial = nil
            }
            return PreparedFetch(index: index, partialCount: partial)
        }
    }

    /// Makes `prepared` (read by `prepareFetch` for this controller's request) the list and
    /// starts tracking changes. `heard`: what the context announced since the reader began.
    public func install(_ prepared: PreparedFetch, heard: [ObjectsDidChange] = []) throws(StoreError) {
        try StoreError.nesting {
            try Self.checkSectioning(fetchRequest, sectionKeyPath)
            try learnEntity()
            backgroundLoad.generation += 1
            index = prepared.index
            partialCount = prepared.partialCount
            temporaryIDs = []
            discardPendingChanges()
            fetched = true
            observeContext()
        }
        var changes = PendingChanges()
        for event in heard { changes.add(event) }
        for o in context.pendingObjects { changes.changed.insert(o.objectID) }
        let coarse = heard.first { $0.invalidatedAll || $0.storeChangedExternally }
        if partialCount != nil {
            // Kept for the load that indexes the rest (`completeFetchInBackground`), which
            // re-evaluates them against the full list.
            backgroundLoad.heard = changes
            backgroundLoad.heardExternal = coarse != nil
        } else {
            if !changes.isEmpty { _ = process(changed: changes.changed, gone: changes.gone, renames: [:], computeChanges: false) }
            if let coarse { contextDidChange(coarse) }
        }
    }
}
