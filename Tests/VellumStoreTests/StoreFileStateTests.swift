import Foundation
import Testing
@testable import VellumStore

/// Stores in the states a crash, a full disk or a copy can leave on disk: committed
/// data only in the `-wal`, a main file a checkpoint could not extend, a damaged
/// log, a stale `-shm`; and paths that are no store at all. Every store that holds
/// its data opens with all of it; every refusal names its reason and changes nothing.
@Suite struct StoreFileStateTests {
    static let tagCount = 300

    /// Bytes and modification time of the store's files (absent ones as nil).
    struct Snapshot: Equatable {
        var files: [String: Data?] = [:]
        var stamps: [String: FileStamp] = [:]
        init(_ path: String) {
            for suffix in ["", "-wal", "-shm"] {
                files[suffix] = FileManager.default.contents(atPath: path + suffix)
                stamps[suffix] = FileStamp(path + suffix)
            }
        }
    }

    /// A copy of a store whose last `tagCount` tags are committed in its `-wal` only,
    /// taken while the writer had it open. `checkpointed`: a checkpoint had copied them
    /// into the main file, which is then cut back to its size before them (the state a
    /// checkpoint that could not extend the file on a full disk leaves). `staleSHM`:
    /// beside it the `-shm` of an earlier moment.
    static func walOnlyStore(_ dir: TempDir, checkpointed: Bool = false, staleSHM: Bool = false) throws -> String {
        let original = dir.file("original.sqlite")
        do { _ = try PersistentStore(url: original, model: Fixtures.shopModel()) }  // closed: all in the main file
        let sizeBefore = FileStamp(original.path).size ?? 0
        let copy = dir.file("copy.sqlite").path
        let store = try PersistentStore(url: original, model: nil)
        let context = try ManagedObjectContext(store: store)
        try context.insert("Tag", values: ["name": .string("first")])
        try context.save()
        if staleSHM { try FileManager.default.copyItem(atPath: original.path + "-shm", toPath: copy + "-shm") }
        for i in 1..<tagCount { try context.insert("Tag", values: ["name": .string("tag \(i) " + String(repeating: "x", count: 400))]) }
        try context.save()
        if checkpointed { try Connection(path: original.path).execute("PRAGMA wal_checkpoint(PASSIVE)") }
        try FileManager.default.copyItem(atPath: original.path, toPath: copy)
        try FileManager.default.copyItem(atPath: original.path + "-wal", toPath: copy + "-wal")
        if checkpointed {
            #expect((FileStamp(copy).size ?? 0) > sizeBefore)
            #expect(truncate(copy, off_t(sizeBefore)) == 0)
        }
        return copy
    }

    static func tagCount(_ path: String, readOnly: Bool) throws -> Int {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: .init(createIfMissing: false, readOnly: readOnly))
        return try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Tag"))
    }

    static func isUnusable(_ error: any Error, path: String, saying text: String) -> Bool {
        guard case StoreError.unusableFile(let p, _) = error else { return false }
        return p == path && "\(error)".contains(text)
    }

    /// High item 3: the main file a checkpoint could not extend (a full disk), with the
    /// log intact, read "malformed" through the immutable probe forever. An ordinary
    /// open reads it whole, and the writer's close repairs the main file.
    @Test func truncatedMainFileWithIntactWALOpensWithAllItsData() throws {
        let dir = TempDir()
        let path = try Self.walOnlyStore(dir, checkpointed: true)
        let before = Snapshot(path)
        #expect(try Self.tagCount(path, readOnly: true) == Self.tagCount)
        #expect(Snapshot(path).files[""] == before.files[""] && Snapshot(path).files["-wal"] == before.files["-wal"],
                "a read-only open changed the main file or the log")
        #expect(try Self.tagCount(path, readOnly: false) == Self.tagCount)
        let check = try Connection(path: path)
        #expect(try check.scalarText("PRAGMA integrity_check") == "ok")
    }

    /// Medium item 15.
    @Test func directoryIsNamedAsOne() throws {
        let dir = TempDir()
        #expect { try PersistentStore(url: dir.url, model: nil, options: .init(createIfMissing: false)) } throws: { e in
            Self.isUnusable(e, path: dir.url.path, saying: "is a directory")
        }
    }

    @Test func emptyFileIsNotADatabaseAndUntouched() throws {
        let dir = TempDir()
        let url = dir.file("empty.vellum")
        try Data().write(to: url)
        let before = Snapshot(url.path)
        for readOnly in [false, true] {
            #expect { try PersistentStore(url: url, model: nil, options: .init(readOnly: readOnly)) } throws: { e in
                Self.isUnusable(e, path: url.path, saying: "empty file, not a database")
            }
        }
        #expect(Snapshot(url.path) == before)
    }

    /// SQLite ignores a log whose header is damaged and deletes it on close, losing
    /// the transactions in it: refused instead, with every file as it was.
    @Test func damagedWALIsRefusedAndNothingChanges() throws {
        let dir = TempDir()
        let path = try Self.walOnlyStore(dir)
        var wal = try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))
        wal[0] ^= 0xFF
        try wal.write(to: URL(fileURLWithPath: path + "-wal"))
        let before = Snapshot(path)
        for readOnly in [false, true] {
            #expect { try Self.tagCount(path, readOnly: readOnly) } throws: { e in
                Self.isUnusable(e, path: path, saying: "copy.sqlite-wal is damaged (bad magic number)")
            }
        }
        #expect(Snapshot(path) == before)
    }

    /// A `-shm` left from another moment is rebuilt from the log; all data is read,
    /// and a read-only open changes neither the main file nor the log.
    @Test func staleSHMIsRebuiltAndAllDataRead() throws {
        let dir = TempDir()
        let path = try Self.walOnlyStore(dir, staleSHM: true)
        let before = Snapshot(path)
        #expect(try Self.tagCount(path, readOnly: true) == Self.tagCount)
        let after = Snapshot(path)
        #expect(after.files[""] == before.files[""] && after.files["-wal"] == before.files["-wal"])
        #expect(after.stamps[""] == before.stamps[""] && after.stamps["-wal"] == before.stamps["-wal"])
        #expect(try Self.tagCount(path, readOnly: false) == Self.tagCount)
    }

    /// "Read-only use": an immutable file (chattr +i) is opened read-only, reading the
    /// main file without creating `-wal`/`-shm` beside it.
    @Test func immutableFileIsReadWithoutSideFiles() throws {
        let dir = TempDir()
        let url = dir.file("shop.sqlite")
        do {
            let store = try Fixtures.openShop(dir)
            let c = try ManagedObjectContext(store: store)
            try c.insert("Tag", values: ["name": .string("kept")])
            try c.save()
        }
        guard chattr("+i", url.path) else { return }  // file system without attributes
        defer { _ = chattr("-i", url.path) }
        let before = Snapshot(url.path)
        #expect { try PersistentStore(url: url, model: nil) } throws: { e in
            if case StoreError.readOnly = e { return true } else { return false }
        }
        let store = try PersistentStore(url: url, model: nil, options: .init(createIfMissing: false, readOnly: true))
        #expect(store.isReadOnly)
        let c = try ManagedObjectContext(store: store)
        #expect(try c.count(FetchRequest(entityName: "Tag")) == 1)
        try c.insert("Tag", values: ["name": .string("refused")])
        #expect { try c.save() } throws: { e in
            if case StoreError.readOnly = e { return true } else { return false }
        }
        #expect(Snapshot(url.path) == before)
    }

    func chattr(_ flag: String, _ path: String) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        p.arguments = [flag, path]
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }
}
