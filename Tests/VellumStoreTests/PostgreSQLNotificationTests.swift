import Foundation
import Testing
@testable import VellumStore

/// Issue #18: each commit's `NOTIFY` carries the transaction's position in the store's
/// history (`schema N`, N its largest change id) — Vellum's saves and other programs'
/// writes (recorded by the triggers) alike — and a listener whose token is already there
/// skips the read (`PostgreSQLChangeNotification.needsRead`).
@Suite struct PostgreSQLNotificationTests {
    /// Listens on `url`'s database; returns the connection.
    static func listener(_ url: URL) throws -> PGConnection {
        let c = try PGConnection(url: url.absoluteString)
        try c.execute("LISTEN \(PostgreSQLChangeNotification.channel)")
        return c
    }

    /// The payloads received within `timeout` seconds once at least `count` arrived.
    static func payloads(_ c: PGConnection, atLeast count: Int, timeout: Double = 30) throws -> [String] {
        var out: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while out.count < count && Date() < deadline {
            out += try c.notifications(waitingMilliseconds: 100).map(\.payload)
        }
        out += try c.notifications(waitingMilliseconds: 50).map(\.payload)
        return out
    }

    static func largestChangeID(_ url: URL) throws -> String {
        try PostgreSQLShop.psql(url, #"SELECT max(id)::text FROM "_vellum_changes""#)[0]
    }

    @Test func vellumSavesAndOtherProgramsWritesNotifyTheirHistoryPosition() throws {
        let url = try PostgreSQLShop.newStoreURL()
        let store = try PostgreSQLShop.open(url)
        let listening = try Self.listener(url)
        let c = try ManagedObjectContext(store: store)
        for name in ["a", "b", "c"] { _ = try c.insert("Tag", values: ["name": .string(name)]) }
        _ = try c.save()
        let saved = try Self.payloads(listening, atLeast: 1)
        // The save's own statements on the Tag table send nothing: one notice, after its history rows.
        #expect(saved == ["shop " + (try Self.largestChangeID(url))], "\(saved)")

        // psql: one UPDATE of three rows (three change rows), then a two-statement transaction.
        _ = try PostgreSQLShop.psql(url, #"UPDATE "Tag" SET "name" = "name" || '!'"#)
        let updated = try Self.payloads(listening, atLeast: 1)
        #expect(updated == ["shop " + (try Self.largestChangeID(url))], "\(updated)")
        try PGConnection(url: url.absoluteString).execute(#"BEGIN; DELETE FROM "Tag" WHERE "name" = 'a!'; INSERT INTO "Tag" ("_entity", "name") VALUES ('Tag', 'd'); COMMIT"#)
        let twoStatements = try Self.payloads(listening, atLeast: 2)
        let positions = twoStatements.compactMap { $0.split(separator: " ").last.flatMap { Int64($0) } }
        #expect(twoStatements.count == 2 && positions.count == 2, "\(twoStatements)")
        #expect(positions.max().map(String.init) == (try Self.largestChangeID(url)), "the last statement's notice is the transaction's position")
    }

    @Test func aStoreWithoutHistoryNotifiesItsSchemaAlone() throws {
        let url = try PostgreSQLShop.newStoreURL()
        var options = StoreOptions()
        options.recordsHistory = false
        let store = try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: try Fixtures.shopModel(), options: options)
        let listening = try Self.listener(url)
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("Tag", values: ["name": .string("a")])
        _ = try c.save()
        #expect(try Self.payloads(listening, atLeast: 1) == ["shop"])
    }

    /// A store whose triggers predate positions gets them when it is opened for writing.
    @Test func anOlderStoresTriggersAreUpgradedWhenOpened() throws {
        let url = try PostgreSQLShop.newStoreURL()
        _ = try PostgreSQLShop.open(url)
        let old = "CREATE OR REPLACE FUNCTION vellum_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_notify('vellum_changes', TG_TABLE_SCHEMA); RETURN NULL; END $$"
        try PGConnection(url: url.absoluteString).execute(#"\#(old); DROP TRIGGER vellum_notify_change ON "_vellum_changes""#)
        let store = try PostgreSQLShop.open(url)
        let listening = try Self.listener(url)
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("Tag", values: ["name": .string("a")])
        _ = try c.save()
        #expect(try Self.payloads(listening, atLeast: 1) == ["shop " + (try Self.largestChangeID(url))])
    }

    @Test func aNoticeIsReadOnlyWhenItsPositionIsPastTheToken() {
        func n(_ payload: String, pid: Int32 = 7) -> PGNotification { PGNotification(channel: "vellum_changes", payload: payload, senderPID: pid) }
        typealias N = PostgreSQLChangeNotification
        #expect(N.notice(n("shop 42"), schema: "shop", ownPID: 7) == N.Notice(position: 42, fromOthers: false))
        #expect(N.notice(n("shop"), schema: "shop", ownPID: 1) == N.Notice(position: nil, fromOthers: true))
        #expect(N.notice(n("my shop 5"), schema: "my shop", ownPID: 1) == N.Notice(position: 5, fromOthers: true))
        #expect(N.notice(n("shop2 42"), schema: "shop", ownPID: 7) == nil)
        #expect(N.notice(n("shop x"), schema: "shop", ownPID: 7) == nil)
        let at = HistoryToken(rawValue: 42)
        #expect(!N.needsRead([N.Notice(position: 42, fromOthers: true), N.Notice(position: 40, fromOthers: true)], after: at))
        #expect(N.needsRead([N.Notice(position: 42, fromOthers: true), N.Notice(position: 43, fromOthers: false)], after: at))
        #expect(N.needsRead([N.Notice(position: nil, fromOthers: true)], after: at), "no position: read")
        #expect(!N.needsRead([], after: at))
    }

    /// Another writer's rapid saves all reach the monitor, object by object, although reads
    /// that a previous read covered are skipped.
    @Test func theMonitorMissesNothingWhileSkippingCoveredReads() async throws {
        let url = try PostgreSQLShop.newStoreURL()
        let store = try PostgreSQLShop.open(url)
        let engine = try #require(store.remoteEngine as? PGEngine)
        let seen = Locked<Set<ObjectID>>([])
        let monitor = PostgreSQLChangeMonitor(store: store, url: engine.connection.url, ownPID: -1) { change in
            if case .transactions(let ts) = change {
                seen.withLock { s in for t in ts { for c in t.changes where c.kind == .insert { s.insert(c.objectID) } } }
            }
        }
        try monitor.start()
        defer { monitor.stop() }
        let other = try PostgreSQLShop.open(url)
        var inserted: Set<ObjectID> = []
        for i in 0..<100 {
            let c = try ManagedObjectContext(store: other)
            let tag = try c.insert("Tag", values: ["name": .string("t\(i)")])
            _ = try c.save()
            inserted.insert(try #require(other.permanentID(for: tag.objectID)))
        }
        _ = try PostgreSQLShop.psql(url, #"INSERT INTO "Tag" ("_entity", "name") SELECT 'Tag', 'sql' || g FROM generate_series(1, 20) g"#)
        let total = inserted.count + 20
        #expect(await waitUntil(timeout: 60) { seen.withLock { $0.count } == total }, "\(seen.withLock { $0.count }) of \(total)")
        #expect(seen.withLock { $0.isSuperset(of: inserted) })
        print("PostgreSQLNotificationTests: \(monitor.skippedReads.withLock { $0 }) of the notifications needed no read")
    }
}
