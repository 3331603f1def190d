import Foundation
import Testing
@testable import VellumStore

/// A history row the monitor cannot read (a damaged tombstone) is reported as
/// `.unknown` (refetch everything), and later changes still arrive. Before, the
/// monitor retried the same row on every tick and never reported anything again.
@Suite struct RemoteChangeUnreadableHistoryTests {
    @Test func anUnreadableHistoryRowIsReportedAsUnknownAndMonitoringGoesOn() async throws {
        let dir = TempDir()
        let path = dir.file("h.sqlite").path
        let model = try ModelBuilder().entity("Reading") { $0.attribute("label", .string, preservedOnDeletion: true) }.build()
        let store = try PersistentStore(url: dir.file("h.sqlite"), model: model)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Reading", values: ["label": .string("a")])
        try ctx.save()
        let received = Locked<[RemoteChange]>([])
        let monitor = RemoteChangeMonitor(store: store) { change in received.withLock { $0.append(change) } }
        try monitor.start()
        defer { monitor.stop() }

        #expect(try runSQLite(path, """
            BEGIN; DELETE FROM Reading; UPDATE _vellum_changes SET tombstone = '{"label":' WHERE kind = 2; COMMIT;
            """).status == 0)
        let unknown = await waitUntil(timeout: 60) {
            received.withLock { $0.contains { if case .unknown = $0 { return true } else { return false } } }
        }
        #expect(unknown, "the unreadable change was never reported")

        #expect(try runSQLite(path, "INSERT INTO Reading (_entity, label) VALUES ('Reading', 'b');").status == 0)
        let later = await waitUntil(timeout: 60) {
            received.withLock { $0.contains { if case .transactions(let t) = $0 { return t.contains { $0.changes.contains { $0.kind == .insert } } } else { return false } } }
        }
        #expect(later, "changes after the unreadable one must still arrive")
    }
}
