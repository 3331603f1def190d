import Foundation
import Testing
@testable import VellumStore

/// Issue 11, "Creating stores", in the library: a store file appears only complete.
@Suite struct StoreCreationTests {
    @Test func concurrentOpenOrCreateAgreesOnOneStore() throws {
        let dir = TempDir()
        let url = dir.file("s.vellum")
        let model = try Fixtures.shopModel()
        let lock = NSLock()
        nonisolated(unsafe) var identifiers: [String] = []
        nonisolated(unsafe) var failures: [String] = []
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let store = try PersistentStore(url: url, model: model)
                lock.withLock { identifiers.append(store.identifier) }
            } catch {
                lock.withLock { failures.append("\(error)") }
            }
        }
        #expect(failures == [])
        #expect(Set(identifiers).count == 1 && identifiers.count == 6)
    }
}

/// Issue #18: first opens of one new PostgreSQL schema from several connections at once
/// (app instances starting together) create one store; every opener sees it complete.
@Suite struct PostgreSQLStoreCreationTests {
    @Test func concurrentFirstOpensOfOneSchemaAgreeOnOneStore() throws {
        let url = try PostgreSQLCluster.shared().makeSchema("together")
        let model = try Fixtures.shopModel()
        let results = Locked<(identifiers: [String], failures: [String])>(([], []))
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do {
                let store = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model)
                let ctx = try ManagedObjectContext(store: store)
                _ = try ctx.insert("Tag", values: ["name": .string(UUID().uuidString)])
                try ctx.save()
                results.withLock { $0.identifiers.append(store.identifier) }
            } catch {
                results.withLock { $0.failures.append("\(error)") }
            }
        }
        let (identifiers, failures) = results.withLock { $0 }
        #expect(failures == [])
        #expect(Set(identifiers).count == 1 && identifiers.count == 6)
        #expect(try PGConnection(url: url).scalar(#"SELECT count(*) FROM "Tag""#) == .integer(6))
    }

    /// A store made before PostgreSQL stores had history gets it on its next open; several
    /// opening at once install it once (the second found it half made before the lock).
    @Test func concurrentOpensOfAStoreWithoutHistoryInstallItOnce() throws {
        let url = try PostgreSQLCluster.shared().makeSchema("upgraded")
        let model = try Fixtures.shopModel()
        var old = StoreOptions()
        old.recordsHistory = false
        _ = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model, options: old)
        let failures = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            do { _ = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model) } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let store = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model)
        let before = try store.currentHistoryToken()
        let ctx = try ManagedObjectContext(store: store)
        _ = try ctx.insert("Tag", values: ["name": .string("after")])
        try ctx.save()
        #expect(try store.history(after: before).count == 1)
    }
}
