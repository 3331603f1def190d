import Foundation
import Testing
@testable import VellumStore

@Suite struct StoreOpeningTests {
    @Test func notADatabaseIsRefusedAndUntouched() throws {
        let dir = TempDir()
        let url = dir.file("notes.sqlite")
        let text = Data(String(repeating: "hello, not sqlite\n", count: 100).utf8)
        try text.write(to: url)
        #expect { try PersistentStore(url: url, model: Fixtures.shopModel()) } throws: { e in
            if case StoreError.notADatabase(let path, _) = e { return path == url.path }
            return false
        }
        #expect(try Data(contentsOf: url) == text)
    }

    @Test func foreignDatabaseIsNotAStoreAndUntouched() throws {
        let dir = TempDir()
        let url = dir.file("foreign.db")
        do {
            let c = try Connection(path: url.path, options: .init(create: true, journalModeWAL: false))
            try c.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        }
        let before = try Data(contentsOf: url)
        #expect { try PersistentStore(url: url, model: nil) } throws: { e in
            if case StoreError.notAStore = e { return true } else { return false }
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + "-wal"))
    }

    /// Another program's WAL-mode database, at a path with characters that need
    /// escaping in a URI: refused, and no -wal or -shm file appears beside it.
    @Test func foreignWALDatabaseGetsNoSideFiles() throws {
        let dir = TempDir()
        let url = dir.file("odd name?#%.db")
        do {
            let c = try Connection(path: url.path, options: .init(create: true, journalModeWAL: true))
            try c.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1)")
        }
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        let before = try Data(contentsOf: url)
        #expect { try PersistentStore(url: url, model: nil) } throws: { e in
            guard case StoreError.notAStore(let path) = e else { return false }
            return path == url.path
        }
        #expect(try Data(contentsOf: url) == before)
        for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(suffix) created") }
    }

    /// Real Core Data stores are recognised and named as such, and left as they were.
    @Test func coreDataStoresAreNamedAndUntouched() throws {
        let stores = SharedFixtures.directory.appendingPathComponent("stores")
        let names = try FileManager.default.contentsOfDirectory(atPath: stores.path).filter { $0.hasSuffix(".sqlite") }
        #expect(!names.isEmpty, "no Core Data fixture stores in \(stores.path)")
        for name in names {
            let dir = TempDir()
            let url = dir.file(name)
            try FileManager.default.copyItem(at: stores.appendingPathComponent(name), to: url)
            let before = try Data(contentsOf: url)
            #expect { try PersistentStore(url: url, model: nil) } throws: { e in
                guard case StoreError.coreDataStore(let path) = e else { return false }
                return path == url.path && "\(e)".contains("a Core Data store")
            }
            #expect(try Data(contentsOf: url) == before, "\(name) changed")
            for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: url.path + suffix), "\(name) got a \(suffix) file") }
        }
    }

    /// A missing file, a different model and none: `StoreEngineStoreTests`, on both engines.
    @Test func readOnlyFilesGetClearErrors() throws {
        let dir = TempDir()
        _ = try Fixtures.openShop(dir)
        let url = dir.file("shop.sqlite")
        if getuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
            #expect { try PersistentStore(url: url, model: nil) } throws: { e in
                if case StoreError.readOnly = e { return true } else { return false }
            }
        }
        let ro = try PersistentStore(url: url, model: nil, options: .init(readOnly: true))
        let ctx = try ManagedObjectContext(store: ro)
        try ctx.insert("Tag", values: ["name": .string("x")])
        #expect(throws: StoreError.self) { try ctx.save() }
        #expect(ctx.hasChanges)
    }

    @Test func inMemoryStore() throws {
        let store = try PersistentStore(url: nil, model: Fixtures.shopModel(), options: .inMemory)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Tag", values: ["name": .string("x")])
        try ctx.save()
        #expect(try ManagedObjectContext(store: store).fetch("Tag").count == 1)
    }
}

@Suite struct WriterConnectionTests {
    /// The writer runs with triggers off (Vellum records its own history), but
    /// foreign-key actions must still keep references valid.
    @Test func foreignKeyActionsStillApplyOnTheWriter() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        try tea.setToOne("provider", acme)
        try ctx.save()
        try store.writeTransaction { db in try db.execute("DELETE FROM Provider") }
        let rows = try Connection(path: dir.file("shop.sqlite").path).rows("SELECT provider FROM Product")
        #expect(rows == [[.null]])
    }
}

@Suite struct DamagedAndLockedFileTests {
    @Test func corruptStoreGetsAClearErrorAndIsNotTouched() throws {
        let dir = TempDir()
        _ = try Fixtures.openShop(dir)
        let url = dir.file("shop.sqlite")
        // Keep the SQLite header, wreck the pages after it.
        var bytes = try Data(contentsOf: url)
        try? FileManager.default.removeItem(atPath: url.path + "-wal")
        try? FileManager.default.removeItem(atPath: url.path + "-shm")
        for i in 100..<min(bytes.count, 8192) { bytes[i] = 0xA5 }
        try bytes.write(to: url)
        #expect {
            let store = try PersistentStore(url: url, model: nil)
            _ = try ManagedObjectContext(store: store).fetch("Product")
        } throws: { e in
            guard let e = e as? StoreError else { return false }
            switch e {
            case .notADatabase, .notAStore: return true
            case .sqlite(let f): return f.kind == .corrupt || f.kind == .notADatabase
            default: return false
            }
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func lockedStoreReportsBusyAndKeepsPendingChanges() throws {
        let dir = TempDir()
        let url = dir.file("shop.sqlite")
        let store = try PersistentStore(url: url, model: Fixtures.shopModel(),
                                        options: StoreOptions(busyTimeoutMilliseconds: 50, writeRetries: 2))
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Tag", values: ["name": .string("x")])
        // Another connection (standing in for another process) holds the write lock.
        let other = try Connection(path: url.path)
        try other.execute("BEGIN IMMEDIATE")
        #expect { try ctx.save() } throws: { e in (e as? StoreError)?.isBusy == true }
        #expect(ctx.hasChanges)
        try other.execute("ROLLBACK")
        try ctx.save()
        #expect(try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Tag")) == 1)
    }
}
