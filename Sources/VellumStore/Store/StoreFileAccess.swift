import Foundation

/// How this process opens the connections of a store file. Read-only use must
/// leave nothing behind: SQLite's own read-only mode creates `-wal`/`-shm` files
/// beside a WAL database when they are missing, and cannot delete them on close,
/// so another user's reader would leave files owned by it that block the owner's
/// next write.
enum StoreFileAccess: Sendable, Equatable {
    /// Reading and writing.
    case readWrite
    /// Read-only use of a file this process could write: a normal WAL connection (so it
    /// sees other writers' commits) with `query_only`. When the `-wal` held transactions
    /// at opening (a crashed writer's, say), they stay there: no checkpoint on close.
    /// Otherwise the last connection removes the `-wal`/`-shm` on close as usual.
    case queryOnly(keepsLog: Bool)
    /// The file or its folder is not writable and a `-wal` exists (someone uses the
    /// store): SQLite's read-only mode reads through the existing `-wal` and `-shm`.
    case sharedReadOnly
    /// The file or its folder is not writable and there is no `-wal`: everything is in
    /// the main file, read without locks so that no file appears beside it. Changes made
    /// after opening are not seen until the store is opened again.
    case immutable

    /// The access for `options` on the existing file at `path`.
    static func choose(for path: String, options: StoreOptions) -> StoreFileAccess {
        guard options.readOnly else { return .readWrite }
        if isWritable(path) { return .queryOnly(keepsLog: StoreFileCheck.walSize(path) > 0) }
        return FileManager.default.fileExists(atPath: path + "-wal") ? .sharedReadOnly : .immutable
    }

    /// True when this process may write both the file and its folder (SQLite needs both).
    static func isWritable(_ path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return access(path, W_OK) == 0 && access(directory.isEmpty ? "." : directory, W_OK) == 0
    }

    /// What to pass to `sqlite3_open_v2` for `path`.
    func connectionPath(_ path: String) -> String {
        self == .immutable ? PersistentStore.immutableURI(path) : path
    }

    /// Open options for a connection with this access and the store's `options`.
    func openOptions(_ options: StoreOptions, create: Bool = false, journalModeWAL: Bool = true) -> Connection.OpenOptions {
        var o = Connection.OpenOptions(readOnly: self == .sharedReadOnly || self == .immutable, create: create && self == .readWrite,
                                       busyTimeoutMilliseconds: options.busyTimeoutMilliseconds, journalModeWAL: journalModeWAL)
        o.enforcesForeignKeys = options.enforcesForeignKeys
        if case .queryOnly(let keepsLog) = self {
            o.queryOnly = true
            o.checkpointsOnClose = !keepsLog
        }
        return o
    }

    /// True when the store refuses writes.
    var isReadOnly: Bool { self != .readWrite }
}
