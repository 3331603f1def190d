import Foundation
import Testing
@testable import VellumStore

/// Issue #11, high item 4: the history triggers bump `_version` for writers
/// outside Vellum, so optimistic locking sees their updates.
@Suite struct ExternalVersionBumpTests {
    func version(_ path: String, _ table: String = "Product") throws -> [Int64] {
        let c = try Connection(path: path, options: .init(readOnly: true))
        return try c.rows("SELECT \"_version\" FROM \(table) ORDER BY \"_pk\"").compactMap { $0[0].integerValue }
    }

    @Test func externalUpdateWithoutVersionBumpIsAConflict() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        try ctx.save()
        #expect(try version(store.path) == [1])
        // Another program changes the price without touching _version.
        #expect(try sqliteShell(store.path, "UPDATE Product SET price = 5") == 0)
        #expect(try version(store.path) == [2])
        try p.setValue(.double(2), forKey: "price")
        #expect(throws: StoreError.self) { try ctx.save() }
        let price = try Connection(path: store.path, options: .init(readOnly: true)).rows("SELECT price FROM Product")[0][0]
        #expect(price == .double(5), "the other program's value is not overwritten")
    }

    @Test func writersThatBumpVersionAndVellumSavesAreBumpedOnce() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea")])
        try ctx.save()
        try p.setValue(.double(3), forKey: "price")
        try ctx.save()
        #expect(try version(store.path) == [2], "a Vellum save bumps once")
        #expect(try sqliteShell(store.path, "UPDATE Product SET price = 4, _version = _version + 1") == 0)
        #expect(try version(store.path) == [3], "a writer that bumps itself is not bumped again")
        #expect(try sqliteShell(store.path, "PRAGMA recursive_triggers = ON; UPDATE Product SET price = 6") == 0)
        #expect(try version(store.path) == [4], "recursive triggers do not bump twice")
        // The context reads the new version and saves on top of it without a conflict.
        try ctx.refresh(p, mergeChanges: false)
        try p.setValue(.double(7), forKey: "price")
        try ctx.save()
        #expect(try version(store.path) == [5])
    }

    /// Triggers as a store made before the version bump had them (history only).
    static let oldUpdateTrigger = """
        DROP TRIGGER "_vellum_history_Product_update";
        CREATE TRIGGER "_vellum_history_Product_update" AFTER UPDATE ON "Product" BEGIN
          INSERT INTO _vellum_changes (txn, timestamp, entity, pk, kind, columns) VALUES (NULL, 0, NEW."_entity", NEW."_pk", 1, 'price');
        END;
        DELETE FROM _vellum_metadata WHERE key = 'historyTriggers';
        """

    func triggerSQL(_ path: String) throws -> [String] {
        let c = try Connection(path: path, options: .init(readOnly: true))
        return try c.rows("SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name").compactMap { $0[0].stringValue }
    }

    @Test func storesOfThePreviousFormatGetTheNewTriggersWhenOpenedForWriting() throws {
        let dir = TempDir()
        let url = dir.file("old.sqlite")
        do {
            let store = try PersistentStore(url: url, model: Fixtures.shopModel())
            let ctx = try ManagedObjectContext(store: store)
            try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
            try ctx.save()
        }
        #expect(try sqliteShell(url.path, Self.oldUpdateTrigger) == 0)
        let old = try triggerSQL(url.path)
        let rows = try sqliteRows(url.path, "SELECT * FROM Product")
        // A read-only open changes nothing.
        _ = try PersistentStore(url: url, model: nil, options: StoreOptions(readOnly: true))
        #expect(try triggerSQL(url.path) == old)
        // Opening for writing installs the triggers once, without touching the data.
        _ = try PersistentStore(url: url, model: nil)
        let upgraded = try triggerSQL(url.path)
        #expect(upgraded != old)
        #expect(try sqliteRows(url.path, "SELECT * FROM Product") == rows)
        #expect(try sqliteRows(url.path, "SELECT value FROM _vellum_metadata WHERE key = 'historyTriggers'") == ["\(HistorySchema.triggerVersion)"])
        _ = try PersistentStore(url: url, model: nil)
        #expect(try triggerSQL(url.path) == upgraded)
        #expect(try sqliteShell(url.path, "UPDATE Product SET price = 5") == 0)
        #expect(try version(url.path) == [2])
    }
}
