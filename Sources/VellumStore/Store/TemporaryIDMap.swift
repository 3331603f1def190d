import Foundation

/// Remembers which permanent ID each recently saved temporary ID became, so an
/// ID taken inside a write block (before its save) still resolves afterwards.
/// Bounded: the oldest entries are forgotten past `capacity`.
final class TemporaryIDMap: @unchecked Sendable {
    private let lock = NSLock()
    private var map: [UUID: ObjectID] = [:]
    private var order: [UUID] = []
    private var start = 0
    private let capacity: Int

    init(capacity: Int = 200_000) { self.capacity = capacity }

    /// Records one save's renamings under one lock.
    func record(_ pairs: [(UUID, ObjectID)]) {
        guard !pairs.isEmpty else { return }
        lock.lock(); defer { lock.unlock() }
        map.reserveCapacity(min(capacity, map.count + pairs.count))
        for (temporary, permanent) in pairs {
            map[temporary] = permanent
            order.append(temporary)
        }
        while order.count - start > capacity {
            map[order[start]] = nil
            start += 1
        }
        if start > capacity { order.removeFirst(start); start = 0 }
    }

    func permanent(for temporary: UUID) -> ObjectID? {
        lock.lock(); defer { lock.unlock() }
        return map[temporary]
    }
}

extension PersistentStore {
    /// The permanent ID a saved object's temporary ID became (or the ID itself if permanent).
    public func permanentID(for id: ObjectID) -> ObjectID? {
        guard case .temporary(let uuid) = id.key else { return id }
        return temporaryIDs.permanent(for: uuid)
    }
}
