import Foundation

/// Writes a file so that nothing is lost: never over a database (the open store,
/// any SQLite database or journal, judged by content and by the same file after
/// resolving symlinks and `..`), never over an existing file unless the caller
/// says so (after asking the user), and never partially: the text goes to a
/// temporary file in the same directory that is renamed into place only when
/// complete. Every command that writes a file the user named goes through here.
package struct SafeFileWriter: Sendable {
    /// What is at the destination now.
    package enum Destination: Sendable, Equatable {
        /// Nothing: writing creates the file.
        case new
        /// An ordinary file: replacing it needs the user's yes.
        case existing
    }

    /// Files that must never be written, with their journals (the open store).
    package let protectedPaths: [String]

    package init(protecting protectedPaths: [String] = []) {
        self.protectedPaths = protectedPaths
    }

    /// `path` with `~` expanded, made absolute, `..` and symlinks resolved
    /// (a missing file's folder is resolved, so a new file lands where the folder really is).
    package static func resolve(_ path: String) -> String {
        let expanded = (path as NSString).expandingTildeInPath
        let absolute = expanded.hasPrefix("/") ? expanded : FileManager.default.currentDirectoryPath + "/" + expanded
        if let real = realpath(absolute, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        let folder = (absolute as NSString).deletingLastPathComponent
        let name = (absolute as NSString).lastPathComponent
        guard let real = realpath(folder, nil) else { return (absolute as NSString).standardizingPath }
        defer { free(real) }
        return (String(cString: real) as NSString).appendingPathComponent(name)
    }

    /// Where `path` would be written, or why it must not be.
    package func check(_ path: String) throws(FileWriteError) -> Destination {
        let target = Self.resolve(path)
        var info = stat()
        guard lstat(target, &info) == 0 else {
            if errno == ENOENT {
                try refuseProtected(target, path: path, info: nil)
                return .new
            }
            throw .io(path: path, detail: FileWriteError.lastErrno)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .directory(path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notARegularFile(path: path) }
        try refuseProtected(target, path: path, info: info)
        if Self.holdsDatabase(target) { throw .database(path: path) }
        return .existing
    }

    /// Writes what `body` produces to `path` through a temporary file renamed into
    /// place once `body` returns. With `replacing` false an existing file is an
    /// error (checked atomically by the final link). If `body` throws, nothing changes.
    package func write(to path: String, replacing: Bool, _ body: (inout FileOutput) throws -> Void) throws {
        let destination = try check(path)
        if destination == .existing && !replacing { throw FileWriteError.exists(path: path) }
        let target = Self.resolve(path)
        let folder = (target as NSString).deletingLastPathComponent
        let (fd, temporary) = try Self.createTemporary(beside: target, tag: "vellum", path: path)
        var output = FileOutput(descriptor: fd, name: path)
        var placed = false
        defer {
            close(fd)
            if !placed { unlink(temporary) }
        }
        try body(&output)
        try output.flush()
        guard fsync(fd) == 0 else { throw FileWriteError.io(path: path, detail: FileWriteError.lastErrno) }
        var old = stat()
        if stat(target, &old) == 0 { fchmod(fd, old.st_mode & 0o7777) }  // a replaced file keeps its permissions
        // Checked again just before the rename: the file may have changed while we wrote.
        if try check(path) == .existing {
            guard replacing else { throw FileWriteError.exists(path: path) }
            guard rename(temporary, target) == 0 else { throw FileWriteError.io(path: path, detail: FileWriteError.lastErrno) }
        } else {
            try Self.placeNew(temporary, at: target, path: path)
        }
        placed = true
        Self.syncFolder(folder)
    }

    /// `write(to:replacing:_:)` for text already in memory.
    package func write(_ text: String, to path: String, replacing: Bool) throws {
        try write(to: path, replacing: replacing) { try $0.write(text) }
    }

    /// Moves a complete file to `target` only if nothing is there: link(2) fails
    /// with EEXIST instead of replacing, so of two writers only one succeeds.
    package static func placeNew(_ temporary: String, at target: String, path: String) throws(FileWriteError) {
        guard link(temporary, target) == 0 else {
            if errno == EEXIST { throw .exists(path: path) }
            throw .io(path: path, detail: FileWriteError.lastErrno)
        }
        unlink(temporary)
    }

    /// Flushes a folder's entries (a rename or link) to disk.
    package static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// True when the file starts like an SQLite database or WAL journal.
    package static func holdsDatabase(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }   // read-only: closing cannot lose data
        // Unreadable: nothing shows it is a database; the write that follows reports its own failure.
        let head = [UInt8]((try? handle.read(upToCount: 16)) ?? Data())
        if head.starts(with: Array("SQLite format 3\0".utf8)) { return true }
        let walMagic: [[UInt8]] = [[0x37, 0x7f, 0x06, 0x82], [0x37, 0x7f, 0x06, 0x83]]
        return walMagic.contains { head.starts(with: $0) }
    }

    private func refuseProtected(_ target: String, path: String, info: stat?) throws(FileWriteError) {
        for protected in protectedPaths {
            let store = Self.resolve(protected)
            for suffix in ["", "-wal", "-shm", "-journal"] where target == store + suffix {
                throw suffix.isEmpty ? .openStore(path: path) : .database(path: path)
            }
            // A hard link to the store is the store too.
            var storeInfo = stat()
            if let info, stat(store, &storeInfo) == 0, storeInfo.st_dev == info.st_dev, storeInfo.st_ino == info.st_ino {
                throw .openStore(path: path)
            }
        }
    }

    /// A new empty file `.<name>.<tag>-<random>` beside `target`, created with
    /// O_EXCL and mode 0666 less the umask (as a plain new file would be).
    package static func createTemporary(beside target: String, tag: String, path: String) throws(FileWriteError) -> (descriptor: Int32, path: String) {
        let folder = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        while true {
            let candidate = (folder.isEmpty ? "." : folder) + "/.\(name).\(tag)-\(UInt32.random(in: 0...UInt32.max))"
            let fd = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if fd >= 0 { return (fd, candidate) }
            if errno != EEXIST {
                throw .io(path: path, detail: "cannot create a temporary file in \(folder.isEmpty ? "." : folder): \(FileWriteError.lastErrno)")
            }
        }
    }
}
