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

    /// Carries values to the refetch's queue and back. Unchecked: the index is a value
    /// there — its entries are a `ChunkedArray` (arrays of arrays, copied on write)
    /// and its key table (a class) is only read there, through `filedKeys` (which writes
    /// nothing), while this side copies the table before writing it (`uniqueKeyTable`,
    /// as the copy holds a reference). The copy comes back to the main queue and is
    /// released there, after the refetch's last read: were the refetch's queue to drop the
    /// last other reference, this side could find the storage unique and write it in place
    /// with nothing ordering that write after those reads (ThreadSanitizer reported it).
    /// The controller goes as a weak box, only dereferenced back on the main queue.
    struct Handoff<T>: @unchecked Sendable { let value: T }

    /// Marks the main queue, to tell when the controller runs on it (not
    /// `Thread.isMainThread`: after `dispatchMain()` another thread serves it).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    /// Compares the rows of a fresh keyed fetch, streamed in primary-key order
    /// (`ordered: false`), with an index, building no table of its own: a sorted list
    /// finds each row's filed sort keys in the index's key table (pages of 64 keys, so
    /// consecutive rows hit one page), an unsorted one walks its entries beside the rows
    /// (saved IDs in it are in key order too).
    struct RefetchComparison {
        let index: ResultsIndex
        private(set) var findings = RefetchFindings()
        private var page: KeyPage<SortKeys>?
        private var lastKey = Int64.min
        private var inOrder = true
        /// Sorted lists: the keys found in the index, ascending (read only when some are missing).
        private var found: [Int64] = []
        /// Unsorted lists: the next entry to match.
        private var next = 0

        private let sorted: Bool
        private let count: Int

        init(index: ResultsIndex) {
            self.index = index
            sorted = index.storesKeys
            count = index.entries.count
        }

        mutating func visit(_ id: ObjectID, _ keys: SortKeys) {
            guard case .permanent(let pk) = id.key, pk > lastKey else {
                inOrder = false
                return
            }
            lastKey = pk
            if sorted {
                guard let filed = index.filedKeys(primaryKey: pk, cache: &page) else {
                    findings.changed.append(id)
                    return
                }
                found.append(pk)
                if filed != keys { findings.changed.append(id) }
                return
            }
            while next < count, let e = index.entries.id(at: next).primaryKey, e < pk {
                findings.missing.append(index.entries.id(at: next))
                next += 1
            }
            if next < count, index.entries.id(at: next).primaryKey == pk { next += 1 } else { findings.changed.append(id) }
        }

        /// What differs; nil when the rows did not come in key order (then reload).
        mutating func finish() -> RefetchFindings? {
            guard inOrder else { return nil }
            if sorted {
                guard found.count < index.filedPrimaryKeyCount else { return findings }
                for p in 0..<count {
                    let id = index.entries.id(at: p)
                    guard let pk = id.primaryKey, !Self.contains(found, pk) else { continue }
                    findings.missing.append(id)
                }
            } else {
                while next < count, index.entries.id(at: next).primaryKey != nil {
                    findings.missing.append(index.entries.id(at: next))
                    next += 1
                }
            }
            return findings
        }

        private static func contains(_ sorted: [Int64], _ key: Int64) -> Bool {
            var lo = 0, hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            return lo < sorted.count && sorted[lo] == key
        }
    }

    /// Refetches `request` on `context` and compares it with `index`.
    static func findings(_ context: ManagedObjectContext, _ request: FetchRequest, index: ResultsIndex) throws -> RefetchFindings? {
        var comparison = RefetchComparison(index: index)
        try context.forEachKeyedID(request, ordered: false) { comparison.visit($0, $1) }
        return comparison.finish()
    }

    /// Handles the coarse part of a change: returns the extra objects to process now
    /// (nil: the refetch failed, reload), or an empty set when the refetch went off-thread.
    func refetchAfterExternalChange() -> Set<ObjectID>? {
        if Self.isOnMainQueue, startRefetchOffMainThread() { return [] }
        guard let f = try? Self.findings(context, fetchRequest, index: index) else { return nil }
        return Set(f.changed).union(f.missing)
    }

    /// Starts (or queues behind the running one) a fetch on the private context; false
    /// when that context cannot be made (the caller then refetches in place).
    private func startRefetchOffMainThread() -> Bool {
        if externalRefetch.running {
            externalRefetch.again = true
            return true
        }
        guard let reader = privateReader() else { return false }
        externalRefetch.running = true
        let request = fetchRequest
        let lent = Handoff(value: index)
        let me = Handoff(value: Weak(self))
        reader.perform({ ctx in try Self.findings(ctx, request, index: lent.value) }) { outcome in
            DispatchQueue.main.async {
                withExtendedLifetime(lent) { me.value.object?.finishRefetch(outcome) }
            }
        }
        return true
    }

    /// A nil finding (rows not in key order) reloads, as a failure does.
    private func finishRefetch(_ outcome: Result<RefetchFindings?, Error>) {
        externalRefetch.running = false
        guard fetched else { return }
        switch outcome {
        case .success(let f?) where partialCount == nil:
            // With what this turn collected: one change set.
            pending.add(ObjectsDidChange(refreshed: Set(f.changed).union(f.missing)))
            applyPendingChanges()
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
