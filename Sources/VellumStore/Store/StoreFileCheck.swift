import Foundation

/// Checks made on an existing store path before SQLite sees it, from the file
/// system and a few header bytes only, so that a path SQLite would misread
/// (a directory, an empty file) or silently repair at the cost of data (a `-wal`
/// whose header is damaged: SQLite ignores such a log and deletes it on close)
/// is refused with its reason and left exactly as it was.
enum StoreFileCheck {
    /// Throws `unusableFile` naming the reason, or returns when SQLite may open `path`.
    static func check(_ path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0 else { return }  // vanished: the open reports it
        switch info.st_mode & S_IFMT {
        case S_IFDIR: throw .unusableFile(path: path, reason: "is a directory, not a store file")
        case S_IFREG: break
        default: throw .unusableFile(path: path, reason: "not a regular file")
        }
        let wal = walSize(path)
        if info.st_size == 0 && wal == 0 {
            throw .unusableFile(path: path, reason: "empty file, not a database (the file was not changed)")
        }
        if let problem = steadyWALHeaderProblem(path + "-wal") {
            throw .unusableFile(path: path, reason: "its write-ahead log \((path as NSString).lastPathComponent)-wal is damaged (\(problem)); "
                + "it may hold committed changes, so the store was not opened and nothing was changed. "
                + "Keep a copy of both files; moving the -wal file aside opens the store without those changes")
        }
    }

    /// True when the main file's header says it is a Vellum store: Vellum's
    /// `application_id` (4 bytes, big-endian, at offset 68) in a WAL-mode file (the read
    /// and write versions at offsets 18 and 19 both 2). Opening such a file in WAL mode
    /// changes nothing in it; a file in rollback mode would be rewritten by that open,
    /// so it never counts, whatever its mark.
    static func isMarkedVellumStore(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }   // read-only: closing cannot lose data
        var header = [UInt8](repeating: 0, count: 72)
        guard header.withUnsafeMutableBytes({ pread(fd, $0.baseAddress, 72, 0) }) == 72 else { return false }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return header[18] == 2 && header[19] == 2 && id == PersistentStore.applicationID
    }

    /// Size of `path-wal`, 0 when there is none.
    static func walSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path + "-wal", &info) == 0 ? Int64(info.st_size) : 0
    }

    /// A header problem that stays while the log is unchanged. A writer restarting or
    /// truncating its log changes it for a moment (read without locks, the header can
    /// look torn or short): then SQLite's locks decide, not this check.
    static func steadyWALHeaderProblem(_ walPath: String) -> String? {
        for _ in 0..<3 {
            let before = FileStamp(walPath)
            guard let problem = walHeaderProblem(walPath, size: before.size ?? 0) else { return nil }
            usleep(20_000)
            if FileStamp(walPath) == before, walHeaderProblem(walPath, size: before.size ?? 0) == problem { return problem }
        }
        return nil
    }

    static let walHeaderSize = 32
    static let walMagic: UInt32 = 0x377f_0682
    static let walVersion: UInt32 = 3_007_000

    /// What is wrong with the 32-byte WAL header, or nil when it is valid (or when
    /// the log is shorter than a header: then it holds no committed frame).
    static func walHeaderProblem(_ walPath: String, size: Int64) -> String? {
        guard size >= Int64(walHeaderSize) else { return nil }
        guard let handle = FileHandle(forReadingAtPath: walPath) else { return nil }
        defer { try? handle.close() }   // read-only: closing cannot lose data
        // A failed read is not ignored: it is the problem reported.
        guard let data = try? handle.read(upToCount: walHeaderSize), data.count == walHeaderSize else {
            return "its header cannot be read"
        }
        let bytes = [UInt8](data)
        func word(_ at: Int) -> UInt32 { bytes[at..<at + 4].reduce(0) { $0 << 8 | UInt32($1) } }
        let magic = word(0)
        guard magic & 0xFFFF_FFFE == walMagic else { return "bad magic number" }
        guard word(4) == walVersion else { return "unknown format version \(word(4))" }
        let pageSize = word(8)
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else { return "bad page size \(pageSize)" }
        let (s0, s1) = walChecksum(bytes[0..<24], bigEndian: magic & 1 == 1)
        guard s0 == word(24), s1 == word(28) else { return "header checksum mismatch" }
        return nil
    }

    /// SQLite's WAL checksum over 8-byte steps (two 32-bit words in the byte order the magic chose).
    static func walChecksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> (UInt32, UInt32) {
        var s0: UInt32 = 0, s1: UInt32 = 0
        var i = bytes.startIndex
        func word(_ at: Int) -> UInt32 {
            let b = bytes[at..<at + 4]
            return bigEndian ? b.reduce(0) { $0 << 8 | UInt32($1) } : b.reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
        while i + 8 <= bytes.endIndex {
            s0 = s0 &+ word(i) &+ s1
            s1 = s1 &+ word(i + 4) &+ s0
            i += 8
        }
        return (s0, s1)
    }
}
