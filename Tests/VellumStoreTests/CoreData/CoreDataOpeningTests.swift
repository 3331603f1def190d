import Foundation
import Testing
@testable import VellumStore

/// Opening a Core Data store to read its model changes no file: not the store, not its
/// `-wal`, and creates nothing beside it.
@Suite struct CoreDataOpeningTests {
    /// With a `-wal` holding a commit not yet checkpointed (as an app leaves it), the
    /// pending row is seen and neither file changes.
    @Test func pendingWALContentIsReadAndNothingChanges() throws {
        let copy = try CoreDataFixtureCopy("Moody-v1.sqlite")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.url.path)
        let before = try CoreDataStoreFile(path: copy.url.path).objectCounts(try CoreDataStoreFile(path: copy.url.path).recoverModel().model)
        #expect(copy.folderContents() == ["Moody-v1.sqlite"])
        let shell = try runSQLiteShell([copy.url.path, ".dbconfig no_ckpt_on_close on",
                                        "INSERT INTO ZMOOD (Z_PK, Z_ENT, Z_OPT, ZDATE) VALUES (100000, 4, 1, 0)"])
        #expect(shell.status == 0, "\(shell.err)")
        let wal = copy.url.path + "-wal"
        let mainBytes = try copy.bytes(), walBytes = try Data(contentsOf: URL(fileURLWithPath: wal))
        #expect(!walBytes.isEmpty)

        let file = try CoreDataStoreFile(path: copy.url.path)
        let counts = try file.objectCounts(try file.recoverModel().model)
        #expect(counts["Mood"] == (before["Mood"] ?? 0) + 1)
        #expect(try copy.bytes() == mainBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: wal)) == walBytes)
        #expect(copy.folderContents() == ["Moody-v1.sqlite", "Moody-v1.sqlite-shm", "Moody-v1.sqlite-wal"])
        #expect(copy.originalUnchanged())
    }

    @Test func filesThatAreNotCoreDataStoresAreTold() throws {
        let dir = TempDir()
        try Data("not a database".utf8).write(to: dir.file("plain.txt"))
        #expect(!CoreDataStoreFile.isCoreDataStore(path: dir.path("plain.txt")))
        #expect(!CoreDataStoreFile.isCoreDataStore(path: dir.path("missing.sqlite")))
        #expect(throws: StoreError.self) { try CoreDataStoreFile(path: dir.path("missing.sqlite")) }
        let store = try Fixtures.openShop(dir)
        _ = store
        #expect(!CoreDataStoreFile.isCoreDataStore(path: dir.path("shop.sqlite")))
        #expect { try CoreDataStoreFile(path: dir.path("shop.sqlite")) } throws: { e in "\(e)".contains("not a Core Data store") }
    }
}
