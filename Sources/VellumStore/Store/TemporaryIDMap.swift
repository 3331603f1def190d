import Foundation

/// Remembers which permanent ID each recently saved temporary ID became, so an
/// ID taken inside a write block (before its save) still resolves afterwards.
///
/// Temporary keys carry an increasing counter (`TemporaryKey`), and a save
/// renames its inserts in counter order, so renamings are kept as sorted runs
/// and found by binary search — recording a 100k-object save is two array
/// appends per object, not hashing. An entry is 16 bytes (counter and primary
/// key); its scope is kept once per stretch of equal scopes, as a save's inserts
/// come in a few entities. Bounded: the oldest entries are forgotten past `capacity`.
final class TemporaryIDMap: Sendable {
    /// One save's renamings (or several saves', extended in counter order).
    struct Batch {
        fileprivate var counters: [UInt64] = []
        fileprivate var keys: [Int64] = []
        /// (first entry, scope) of each stretch of entries with one scope, by first entry.
        fileprivate var scopes: [(start: Int, scope: ObjectIDScope)] = []

        init(capacity: Int = 0) {
            counters.reserveCapacity(capacity)
            keys.reserveCapacity(capacity)
        }

        var count: Int { counters.count }

        /// Counter `counter` became key `key` in `scope`.
        mutating func append(counter: UInt64, key: Int64, scope: ObjectIDScope) {
            if scopes.last?.scope !== scope { scopes.append((counters.count, scope)) }
            counters.append(counter)
            keys.append(key)
        }

        fileprivate var isSorted: Bool {
            counters.withUnsafeBufferPointer { c in
                c.count < 2 || (1..<c.count).allSatisfy { c[$0 - 1] < c[$0] }
            }
        }

        /// The same entries in counter order.
        fileprivate func sorted() -> Batch {
            var out = Batch(capacity: count)
            for i in counters.indices.sorted(by: { counters[$0] < counters[$1] }) {
                out.append(counter: counters[i], key: keys[i], scope: scope(at: i))
            }
            return out
        }

        fileprivate mutating func append(contentsOf other: Batch) {
            // Only `other`'s first stretch can continue this batch's last one.
            let offset = counters.count
            for (start, scope) in other.scopes where !(start == 0 && scopes.last?.scope === scope) {
                scopes.append((offset + start, scope))
            }
            counters.append(contentsOf: other.counters)
            keys.append(contentsOf: other.keys)
        }

        /// Without its oldest `k` entries.
        fileprivate mutating func removeFirst(_ k: Int) {
            let kept = scopes.lastIndex { $0.start <= k } ?? 0
            scopes = scopes[kept...].enumerated().map { ($0.offset == 0 ? 0 : $0.element.start - k, $0.element.scope) }
            counters.removeFirst(k)
            keys.removeFirst(k)
        }

        fileprivate func scope(at entry: Int) -> ObjectIDScope {
            // The last stretch starting at or before `entry`.
            var lo = 0, hi = scopes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if scopes[mid].start <= entry { lo = mid + 1 } else { hi = mid }
            }
            return scopes[lo - 1].scope
        }

        /// The permanent ID of `counter`, if this batch renamed it (binary search).
        fileprivate func permanent(for counter: UInt64) -> ObjectID? {
            var lo = 0, hi = counters.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if counters[mid] < counter { lo = mid + 1 } else { hi = mid }
            }
            guard lo < counters.count, counters[lo] == counter else { return nil }
            return ObjectID(scope: scope(at: lo), key: .permanent(keys[lo]))
        }
    }

    private struct Runs {
        var runs: [Batch] = []
        var total = 0
    }
    private let state = Locked(Runs())
    private let capacity: Int

    init(capacity: Int = 1_000_000) { self.capacity = capacity }

    /// Records one save's renamings. A batch whose counters follow the newest run's
    /// extends it (the write queue's saves do); any other starts a run of its own.
    func record(_ batch: Batch) {
        guard let first = batch.counters.first else { return }
        let inOrder = batch.isSorted
        let sorted = inOrder ? batch : batch.sorted()
        state.withLock { s in
            if let last = s.runs.last?.counters.last, last < first, inOrder {
                s.runs[s.runs.count - 1].append(contentsOf: sorted)
            } else {
                s.runs.append(sorted)
            }
            s.total += sorted.count
            while s.total > capacity, s.runs.count > 1 {
                s.total -= s.runs.removeFirst().count
            }
            // One run that every save extended (a write queue's) is cut from its oldest end,
            // by at least half the capacity at a time so that cutting stays O(1) per entry.
            if s.total > capacity, let run = s.runs.first, s.runs.count == 1 {
                let cut = min(run.count, max(s.total - capacity, capacity / 2))
                s.runs[0].removeFirst(cut)
                s.total -= cut
            }
        }
    }

    /// Renamings remembered now (at most `capacity`).
    var count: Int { state.withLock { $0.total } }

    func permanent(for temporary: UUID) -> ObjectID? {
        guard let counter = TemporaryKey.counter(of: temporary) else { return nil }
        return state.withLock { s in
            for run in s.runs.reversed() {
                if let id = run.permanent(for: counter) { return id }
            }
            return nil
        }
    }
}

extension PersistentStore {
    /// The permanent ID a saved object's temporary ID became (or the ID itself if permanent).
    public func permanentID(for id: ObjectID) -> ObjectID? {
        guard case .temporary(let uuid) = id.key else { return id }
        return temporaryIDs.permanent(for: uuid)
    }
}
