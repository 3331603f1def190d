import Foundation

/// Remembers which permanent ID each recently saved temporary ID became, so an
/// ID taken inside a write block (before its save) still resolves afterwards.
///
/// Temporary keys carry an increasing counter (`TemporaryKey`), and a save
/// renames its inserts in counter order, so renamings are kept as sorted runs
/// and found by binary search — recording a 100k-object save is two array
/// appends per object, not hashing. Bounded: the oldest entries are forgotten
/// past `capacity`.
final class TemporaryIDMap: Sendable {
    private struct Run {
        var counters: [UInt64] = []
        var ids: [ObjectID] = []
    }
    private struct Runs {
        var runs: [Run] = []
        var total = 0
    }
    private let state = Locked(Runs())
    private let capacity: Int

    init(capacity: Int = 1_000_000) { self.capacity = capacity }

    /// Records one save's renamings (temporary key counter → permanent ID), in counter order.
    func record(_ pairs: [(UInt64, ObjectID)]) {
        guard let first = pairs.first else { return }
        let sorted = isSorted(pairs) ? pairs : pairs.sorted { $0.0 < $1.0 }
        state.withLock { s in
            // Extend the newest run when counters keep increasing (the write queue's saves do).
            if s.runs.isEmpty || (s.runs[s.runs.count - 1].counters.last ?? 0) >= first.0 || !isSorted(pairs) {
                s.runs.append(Run())
            }
            s.runs[s.runs.count - 1].counters.append(contentsOf: sorted.map(\.0))
            s.runs[s.runs.count - 1].ids.append(contentsOf: sorted.map(\.1))
            s.total += pairs.count
            while s.total > capacity, s.runs.count > 1 {
                s.total -= s.runs.removeFirst().counters.count
            }
        }
    }

    private func isSorted(_ pairs: [(UInt64, ObjectID)]) -> Bool {
        zip(pairs, pairs.dropFirst()).allSatisfy { $0.0 < $1.0 }
    }

    func permanent(for temporary: UUID) -> ObjectID? {
        guard let counter = TemporaryKey.counter(of: temporary) else { return nil }
        return state.withLock { s in
            for run in s.runs.reversed() {
                var lo = 0, hi = run.counters.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if run.counters[mid] < counter { lo = mid + 1 } else { hi = mid }
                }
                if lo < run.counters.count && run.counters[lo] == counter { return run.ids[lo] }
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
