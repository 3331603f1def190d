import Foundation

/// Refetch-and-diff after a change the store knows only coarsely (another writer,
/// no history): the list is fetched again (unsorted: rows are matched by key, and
/// sorting a large table is most of a sorted query's cost) and compared with the index, and the
/// objects whose presence or sort keys differ go through the same incremental
/// path as any change, so the change set is fine-grained (inserts, deletes,
/// moves, updates) and turns the old list into the new one exactly.
///
/// On the main queue (a view context) the fetch and the comparison run on a
/// private context of their own, off the main thread; the result is applied on
/// the main queue. Elsewhere they run in place, on the context's queue.
extension ResultsController {
    /// A refetch in flight, and whether another change arrived meanwhile.
    struct ExternalRefetch {
        var running = false
        var again = false
        /// The private context the off-thread fetch runs on (its own reader connection).
        var reader: BackgroundContext?
    }

    /// What a refetch found different from the index it was compared with.
    struct RefetchFindings: Sendable {
        /// Fetched IDs that were not in the index, or were with other sort keys.
        var changed: [ObjectID] = []
        /// Saved IDs of the index that the fetch no longer returns.
        var missing: [ObjectID] = []
    }

    /// Carries values to the refetch's queue and back. Unchecked: the index's entries
    /// are two `ChunkedArray`s (arrays of arrays, copied on write), so the copy is a
    /// value of its own there (the key table, a class, is never sent); the controller
    /// goes as a weak box, only dereferenced back on the main queue.
    struct Handoff<T>: @unchecked Sendable { let value: T }

    /// Marks the main queue, to tell when the controller runs on it (not
    /// `Thread.isMainThread`: after `dispatchMain()` another thread serves it).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// Compares fresh (ID, sort keys) rows with the index's entries: one pass over
    /// each, saved objects found by primary key (they share one root table).
    static func findings(fresh: [(id: ObjectID, keys: SortKeys)], entries: IndexEntries) -> RefetchFindings {
        var f = RefetchFindings()
        var positions: [Int64: Int] = [:]
        positions.reserveCapacity(entries.count)
        for (p, e) in entries.enumerated() { if case .permanent(let pk) = e.id.key { positions[pk] = p } }
        var seen = [Bool](repeating: false, count: entries.count)
        for r in fresh {
            guard case .permanent(let pk) = r.id.key, let p = positions[pk], entries[p].id == r.id else {
                f.changed.append(r.id)
                continue
            }
            seen[p] = true
            if entries.storesKeys && entries[p].keys != r.keys { f.changed.append(r.id) }
        }
        for p in seen.indices where !seen[p] && !entries[p].id.isTemporary { f.missing.append(entries[p].id) }
        return f
    }

    /// Handles the coarse part of a change: returns the extra objects to process now
    /// (nil: the refetch failed, reload), or an empty set when the refetch went off-thread.
    func refetchAfterExternalChange() -> Set<ObjectID>? {
        if Self.isOnMainQueue, startRefetchOffMainThread() { return [] }
        do {
            let f = Self.findings(fresh: try context.fetchKeyedIDs(fetchRequest, ordered: false), entries: index.entries)
            return Set(f.changed).union(f.missing)
        } catch {
            return nil
        }
    }

    /// Starts (or queues behind the running one) a fetch on the private context; false
    /// when that context cannot be made (the caller then refetches in place).
    private func startRefetchOffMainThread() -> Bool {
        if externalRefetch.running {
            externalRefetch.again = true
            return true
        }
        if externalRefetch.reader == nil {
            externalRefetch.reader = try? BackgroundContext(store: context.store, label: "vellum.results-refetch", mergePolicy: .error)
        }
        guard let reader = externalRefetch.reader else { return false }
        externalRefetch.running = true
        let request = fetchRequest
        let copy = Handoff(value: index.entries)
        let me = Handoff(value: Weak(self))
        reader.perform({ ctx in Self.findings(fresh: try ctx.fetchKeyedIDs(request, ordered: false), entries: copy.value) }) { outcome in
            DispatchQueue.main.async { me.value.object?.finishRefetch(outcome) }
        }
        return true
    }

    private func finishRefetch(_ outcome: Result<RefetchFindings, Error>) {
        externalRefetch.running = false
        guard fetched else { return }
        switch outcome {
        case .success(let f) where partialCount == nil:
            let changed = Set(f.changed).union(f.missing)
            if !changed.isEmpty { deliver(process(changed: changed, gone: [], renames: [:], computeChanges: true)) }
        default:
            reload()
        }
        if externalRefetch.again {
            externalRefetch.again = false
            if !startRefetchOffMainThread() { reload() }
        }
    }

    /// The controller, without keeping it alive while its refetch runs.
    final class Weak {
        weak var object: ResultsController?
        init(_ object: ResultsController) { self.object = object }
    }
}
