import CSQLite
import Foundation
@testable import VellumStore

/// A SQLite VFS that can hold a commit after it wrote (and synced) its frames to
/// the `-wal` file and before it publishes them in `-shm`: the window in which a
/// watcher woken by the `-wal` write sees no new commit, and after which no file
/// event follows (`-shm` is memory-mapped). Another process lands in that window
/// only by chance; this makes it happen every time.
///
/// It is the default (unix) VFS under another name with one change: the `-wal`
/// file's `xSync`, called by a commit with `synchronous=FULL` after its frames are
/// written and right before the wal-index header is, runs the hold given to
/// `holdNextWALSync` instead of syncing (the test needs no durability, and a real
/// fsync on a loaded disk would make the window's length the disk's).
enum HeldCommitVFS {
    static let name = "vellum-held-commit"

    private static let hold = Locked<(@Sendable () -> Void)?>(nil)
    // Set once, while registering (below) and by the first `-wal` open; read-only after.
    nonisolated(unsafe) private static var baseOpen: (@convention(c) (UnsafeMutablePointer<sqlite3_vfs>?, sqlite3_filename?, UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?) -> Int32)?
    nonisolated(unsafe) private static var baseSync: (@convention(c) (UnsafeMutablePointer<sqlite3_file>?, Int32) -> Int32)?
    nonisolated(unsafe) private static var walMethods: UnsafeMutablePointer<sqlite3_io_methods>?

    /// Registers the VFS (once per process); connections opt in by name.
    static func register() { _ = registration }

    private static let registration: Void = {
        guard let base = sqlite3_vfs_find(nil) else { return }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: base.pointee)
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.pNext = nil
        baseOpen = base.pointee.xOpen
        vfs.pointee.xOpen = { vfs, path, file, flags, outFlags in
            let rc = HeldCommitVFS.baseOpen!(vfs, path, file, flags, outFlags)
            if rc == SQLITE_OK, flags & SQLITE_OPEN_WAL != 0, let file { HeldCommitVFS.patchWAL(file) }
            return rc
        }
        sqlite3_vfs_register(vfs, 0)
    }()

    /// The `-wal` file gets a copy of its methods whose `xSync` runs the hold.
    private static func patchWAL(_ file: UnsafeMutablePointer<sqlite3_file>) {
        guard let methods = file.pointee.pMethods else { return }
        if walMethods == nil {
            let copy = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
            copy.initialize(to: methods.pointee)
            baseSync = methods.pointee.xSync
            copy.pointee.xSync = { file, flags in
                guard let held = HeldCommitVFS.takeHold() else { return HeldCommitVFS.baseSync!(file, flags) }
                held()
                return SQLITE_OK
            }
            walMethods = copy
        }
        file.pointee.pMethods = UnsafePointer(walMethods)
    }

    /// The next `-wal` sync (a commit's, between its frames and its `-shm` update) runs `body` instead.
    static func holdNextWALSync(_ body: @escaping @Sendable () -> Void) {
        hold.withLock { $0 = body }
    }

    private static func takeHold() -> (@Sendable () -> Void)? {
        hold.withLock { held in
            let body = held
            held = nil
            return body
        }
    }
}

/// A plain SQLite connection through `HeldCommitVFS`, committing with `synchronous=FULL`
/// (so each commit syncs the `-wal` file, which is where the hold happens).
// Unchecked: used by one thread at a time (created on the test's, then handed to one writer thread).
final class HeldCommitWriter: @unchecked Sendable {
    private let db: OpaquePointer

    init(path: String) throws {
        HeldCommitVFS.register()
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE, HeldCommitVFS.name) == SQLITE_OK, let handle else {
            throw StoreError.invalidOperation("cannot open \(path) through \(HeldCommitVFS.name)")
        }
        db = handle
        try exec("PRAGMA busy_timeout = 30000; PRAGMA synchronous = FULL")
    }

    deinit { sqlite3_close_v2(db) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw StoreError.invalidOperation("\(sql): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
