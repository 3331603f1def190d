import CLibPQ
import Foundation

/// What `PQcancel` needs to stop a connection's running statement, usable from any
/// thread (libpq allows `PQcancel` there; `PQgetCancel` belongs to the connection's
/// own thread, so it is renewed by the owner after each (re)connect).
final class PGCanceller: Sendable {
    /// libpq's cancel object, read or replaced only inside the lock.
    private struct Handle: @unchecked Sendable { var pointer: OpaquePointer? }
    private let handle = Locked(Handle(pointer: nil))

    /// Called by the connection's owner after connecting.
    func renew(from connection: OpaquePointer) {
        let fresh = Handle(pointer: PQgetCancel(connection))
        handle.withLock { current in
            if let old = current.pointer { PQfreeCancel(old) }
            current = fresh
        }
    }

    /// Asks the server to stop what the connection runs now (nothing when it runs nothing).
    func cancelRunningStatement() {
        handle.withLock { current in
            guard let cancel = current.pointer else { return }
            var message = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &message, Int32(message.count))
        }
    }

    deinit { handle.withLock { if let cancel = $0.pointer { PQfreeCancel(cancel) } } }
}
