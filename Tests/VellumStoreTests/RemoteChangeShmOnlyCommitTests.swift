import Foundation
import Testing
@testable import VellumStore

/// Another writer's commit becomes visible only when it updates `-shm`, after the
/// `-wal` write that woke the monitor. A check in between found nothing, and the
/// monitor slept until the next file event — the writer's next commit, or the
/// 500 ms safety timer (`remote-latency-p99` read one writer interval, 5 ms).
/// Now an empty wake-up is followed by a few quick re-checks.
@Suite struct RemoteChangeShmOnlyCommitTests {
    @Test func aCommitPublishedAfterTheMonitorWokeIsStillReported() async throws {
        let dir = TempDir()
        let url = dir.file("held.sqlite")
        let model = try ModelBuilder().entity("Reading") { $0.attribute("label", .string) }.build()
        let store = try PersistentStore(url: url, model: model)
        let inserts = Locked(0)
        // The safety timer never fires during the test: only file events (and re-checks) report.
        let monitor = RemoteChangeMonitor(store: store, safetyIntervalMilliseconds: 3_600_000) { change in
            guard case .transactions(let transactions) = change else { return }
            let n = transactions.reduce(0) { $0 + $1.changes.filter { $0.kind == .insert }.count }
            inserts.withLock { $0 += n }
        }
        try monitor.start()
        defer { monitor.stop() }
        try #require(monitor.usesFileEvents, "inotify is needed to wake the monitor")

        let writer = try HeldCommitWriter(path: url.path)
        try writer.exec("INSERT INTO Reading (_entity, label) VALUES ('Reading', 'first')")
        #expect(await waitUntil(timeout: 60) { inserts.withLock { $0 } == 1 }, "a plain commit is reported")

        // The second commit waits, its frames written, until the monitor has checked again:
        // that check (woken by the -wal write, or one just before) sees nothing, and no
        // file event follows the -shm update.
        HeldCommitVFS.holdNextWALSync {
            let checked = monitor.checkCount
            let deadline = Date().addingTimeInterval(60)
            while monitor.checkCount == checked && Date() < deadline { usleep(200) }
        }
        let outcome = Locked<String?>(nil)
        Thread {
            do { try writer.exec("INSERT INTO Reading (_entity, label) VALUES ('Reading', 'second')"); outcome.withLock { $0 = "committed" } } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }.start()
        #expect(await waitUntil(timeout: 60) { outcome.withLock { $0 } != nil })
        #expect(outcome.withLock { $0 } == "committed")
        #expect(await waitUntil(timeout: 60) { inserts.withLock { $0 } == 2 },
                "the commit published after the monitor's empty check was never reported")
    }
}
