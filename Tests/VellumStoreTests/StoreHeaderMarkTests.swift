import Foundation
import Testing
@testable import VellumStore

/// Vellum's `application_id` in the SQLite header: what it promises (a store says it is
/// one in its first 100 bytes, so opening needs no probe connection) and what it must not
/// change (older stores without it open; another program's file is still refused).
@Suite struct StoreHeaderMarkTests {
    private static let mark = Data("VLUM".utf8)

    private static func headerMark(_ url: URL) throws -> Data {
        let bytes = try Data(contentsOf: url)
        return bytes.count >= 72 ? bytes.subdata(in: 68..<72) : Data()
    }

    @Test func aNewStoreSaysInItsHeaderThatItIsAVellumStore() throws {
        let dir = TempDir()
        let url = dir.file("shop.vellum")
        do {
            let store = try PersistentStore(url: url, model: Fixtures.shopModel())
            _ = store
        }
        #expect(try Self.headerMark(url) == Self.mark)
        let c = try Connection(path: url.path, options: .init(readOnly: true))
        #expect(try c.scalarInt("PRAGMA application_id") == Int64(Int32(bitPattern: PersistentStore.applicationID)))
    }

    @Test func anOlderStoreWithoutTheMarkOpensAndItsMigrationMarksIt() throws {
        let dir = TempDir()
        let url = dir.file("old.vellum")
        do {
            let store = try PersistentStore(url: url, model: Fixtures.shopModel())
            try store.writer.execute("PRAGMA application_id = 0")
            _ = store
        }
        #expect(try Self.headerMark(url) == Data(count: 4))
        do {
            let store = try PersistentStore(url: url, model: Fixtures.shopModel())
            let ctx = try ManagedObjectContext(store: store)
            _ = try ctx.fetch(FetchRequest(entityName: "Product"))
            _ = store
        }
        #expect(try Self.headerMark(url) == Data(count: 4), "opening wrote the header")

        var entities = try Fixtures.shopModel().entityDescriptions
        let i = entities.firstIndex { $0.name == "Product" }!
        entities[i].attributes.append(AttributeDescription(name: "barcode", type: .string))
        try StoreMigrator.migrate(storeAt: url, to: try ManagedObjectModel(entities: entities), options: MigrationOptions(backup: false))
        do {
            let store = try PersistentStore(url: url, model: nil)
            _ = store
        }
        #expect(try Self.headerMark(url) == Self.mark)
    }

    /// The mark is a shortcut, not a verdict: a file that carries it without being a store
    /// is refused as before, and left as it was, in either journal mode (a rollback-mode
    /// file is judged by the probe: the WAL-mode open would rewrite its header).
    @Test(arguments: [false, true])
    func anotherProgramsDatabaseCarryingTheMarkIsStillRefused(wal: Bool) throws {
        let dir = TempDir()
        let url = dir.file("impostor.db")
        do {
            let c = try Connection(path: url.path, options: .init(create: true, journalModeWAL: wal))
            try c.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
            try c.execute(PersistentStore.markAsVellumSQL)
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let before = try Data(contentsOf: url)
        #expect { try PersistentStore(url: url, model: nil) } throws: { e in
            if case StoreError.notAStore = e { return true } else { return false }
        }
        #expect { try StoreMigrator.migrate(storeAt: url, to: Fixtures.shopModel(), options: MigrationOptions(backup: false)) } throws: { e in
            if case StoreError.notAStore = e { return true } else { return false }
        }
        #expect(try Data(contentsOf: url) == before)
    }
}
