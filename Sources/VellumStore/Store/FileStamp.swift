import Foundation

/// Identity and state of a file as `stat` reports them: which file a path names
/// (device, inode) and whether it changed (size, modification time). Nil fields
/// when the path does not exist.
public struct FileStamp: Sendable, Equatable {
    public var device: UInt64?
    public var inode: UInt64?
    public var size: Int64?
    public var modified: timespec?

    public init(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
    }

    /// True when `path` names a file at all.
    public var exists: Bool { inode != nil }

    /// True when both name the same file (not a deleted-and-recreated one).
    public func isSameFile(as other: FileStamp) -> Bool { exists && device == other.device && inode == other.inode }

    public static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modified?.tv_sec == b.modified?.tv_sec && a.modified?.tv_nsec == b.modified?.tv_nsec
    }
}
