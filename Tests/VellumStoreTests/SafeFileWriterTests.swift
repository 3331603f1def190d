import Foundation
import Testing
import VellumStore

/// Issue 11, critical item 1: the one writer every file-writing command uses.
@Suite struct SafeFileWriterTests {
    struct Stop: Error {}

    func names(_ dir: TempDir) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []).sorted()
    }

    @Test func failedExportLeavesNoPartialFile() throws {
        let dir = TempDir()
        let old = dir.file("out.csv").path, new = dir.file("new.csv").path
        try "old\n".write(toFile: old, atomically: false, encoding: .utf8)
        let writer = SafeFileWriter()
        for path in [old, new] {
            #expect(throws: Stop.self) {
                try writer.write(to: path, replacing: true) { out in
                    // More than one buffer, so part of it reached the temporary file.
                    for _ in 0..<20_000 { try out.write("partial row\n") }
                    throw Stop()
                }
            }
        }
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "old\n")
        #expect(names(dir) == ["out.csv"])
    }

    @Test func existingFileIsReplacedOnlyWhenAsked() throws {
        let dir = TempDir()
        let path = dir.file("out.csv").path
        try "old\n".write(toFile: path, atomically: false, encoding: .utf8)
        chmod(path, 0o640)
        let writer = SafeFileWriter()
        #expect(try writer.check(path) == .existing)
        #expect(throws: FileWriteError.exists(path: path)) { try writer.write("new\n", to: path, replacing: false) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
        try writer.write("new\n", to: path, replacing: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new\n")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(names(dir) == ["out.csv"])
    }

    @Test func aFileCreatedWhileWritingIsNotReplaced() throws {
        let dir = TempDir()
        let path = dir.file("out.csv").path
        #expect(throws: FileWriteError.exists(path: path)) {
            try SafeFileWriter().write(to: path, replacing: false) { out in
                try out.write("mine\n")
                try "theirs\n".write(toFile: path, atomically: false, encoding: .utf8)
            }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs\n")
        #expect(names(dir) == ["out.csv"])
    }

    @Test func databasesAndTheOpenStoreAreRefused() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir, name: "shop.vellum")
        let storePath = store.path
        link(storePath, dir.file("hard.csv").path)
        try FileManager.default.createSymbolicLink(atPath: dir.file("soft.csv").path, withDestinationPath: storePath)
        let copy = dir.file("copy.bin").path
        try FileManager.default.copyItem(atPath: storePath, toPath: copy)
        let writer = SafeFileWriter(protecting: [storePath])
        for name in ["shop.vellum", "hard.csv", "soft.csv", "../\(dir.url.lastPathComponent)/shop.vellum"] {
            let path = dir.file(name).path
            #expect(throws: FileWriteError.openStore(path: path)) { try writer.write("x", to: path, replacing: true) }
        }
        for path in [copy, storePath + "-wal"] {
            #expect(throws: FileWriteError.database(path: path)) { try writer.write("x", to: path, replacing: true) }
        }
        // Any SQLite database, even without a store open.
        #expect(throws: FileWriteError.database(path: copy)) { try SafeFileWriter().write("x", to: copy, replacing: true) }
        #expect(throws: FileWriteError.directory(path: dir.url.path)) { try writer.check(dir.url.path) }
        #expect(SafeFileWriter.holdsDatabase(storePath))
    }
}
