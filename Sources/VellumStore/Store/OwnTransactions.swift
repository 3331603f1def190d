
/// History sequence numbers of this process's own saves through one store
/// object, so the remote-change monitor can skip what was already merged.
final class OwnTransactions: Sendable {
    private let sequences = Locked<Set<Int64>>([])

    func insert(_ seq: Int64) {
        sequences.withLock { _ = $0.insert(seq) }
    }

    func removeAll() {
        sequences.withLock { $0.removeAll() }
    }

    /// True (once) if `seq` is one of ours.
    func consume(_ seq: Int64) -> Bool {
        sequences.withLock { $0.remove(seq) != nil }
    }
}
