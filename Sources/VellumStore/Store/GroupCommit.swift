import Foundation
import Synchronization

/// The state of a write group: several writes sharing one SQLite transaction
/// (`PersistentStore.writeGroup`). Only the thread that runs the group — it
/// holds the writer lock — reads or changes the fields; any thread may ask
/// whether it is that thread.
// Unchecked: every field but `owner` is touched only by the owning thread.
final class GroupCommit: @unchecked Sendable {
    /// The owning thread's identifier, 0 when no group runs.
    private let owner = Atomic<UInt>(0)
    /// Saves made inside the group, told to subscribers after its COMMIT.
    var events: [(DidSave, ObjectIdentifier)] = []
    /// History transactions written inside the group (this process's own).
    var transactions: [Int64] = []
    /// Set when SQLite ended the shared transaction itself (disk full, I/O error):
    /// nothing written in the group can commit any more.
    var failure: (any Error)?
    /// Savepoints open now (names them uniquely).
    var depth = 0
    /// True once the shared transaction began (at the group's first write).
    var began = false
    /// The block running now (`PersistentStore.groupBlock`), its savepoint opened at its first write.
    var block: Block?
    struct Block {
        /// Counts of `events` and `transactions` when the block began.
        var events: Int
        var transactions: Int
        var isOpen = false
    }
    static let blockSavepoint = "vellum_group_block"

    var isOwnedByCurrentThread: Bool {
        let o = owner.load(ordering: .acquiring)
        return o != 0 && o == Self.currentThread
    }

    func begin() {
        owner.store(Self.currentThread, ordering: .releasing)
    }

    func end() {
        owner.store(0, ordering: .releasing)
        events = []
        transactions = []
        failure = nil
        depth = 0
        began = false
        block = nil
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
