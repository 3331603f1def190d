import Foundation

/// History sequence numbers of this process's own saves through one store
/// object, so the remote-change monitor can skip what was already merged.
final class OwnTransactions: @unchecked Sendable {
    private let lock = NSLock()
    private var sequences: Set<Int64> = []

    func insert(_ seq: Int64) {
        lock.lock(); sequences.insert(seq); lock.unlock()
    }

    func removeAll() {
        lock.lock(); sequences.removeAll(); lock.unlock()
    }

    /// True (once) if `seq` is one of ours.
    func consume(_ seq: Int64) -> Bool {
        lock.lock(); defer { lock.unlock() }
        return sequences.remove(seq) != nil
    }
}
