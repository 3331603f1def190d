import Foundation
import Testing
import VellumApp
import VellumStore

/// The browser's edits are written by the write queue: while one waits for the
/// write lock (another program holds it), the screen keeps answering keys; when
/// the lock is free the edit lands in the file (read back with sqlite3).
@Suite("E2E browser writes through the write queue", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EWriteQueueTests {
    /// True once another connection can no longer take the write lock.
    func lockIsHeld(_ path: String) -> Bool {
        Tmux.run("/usr/bin/sqlite3", ["-cmd", ".timeout 0", path, "BEGIN IMMEDIATE; ROLLBACK;"]).status != 0
    }

    @Test func theScreenAnswersKeysWhileAnEditWaitsForTheWriteLock() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        let row = "SELECT priority FROM Task WHERE title = 'Audit inventory #1'"
        #expect(store.sql(row) == "3")
        // Another program takes the write lock and keeps it.
        let holder = Tmux("/usr/bin/sqlite3 '\(store.path)'")
        defer { holder.kill() }
        #expect(holder.wait(for: "sqlite>"), "\(holder.screen)")
        // (A trailing ";" would be taken by tmux as its own command separator.)
        holder.type("BEGIN IMMEDIATE; -- hold"); holder.keys("Enter")
        let deadline = Date().addingTimeInterval(20)
        while !lockIsHeld(store.path) && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(lockIsHeld(store.path))

        // Columns: title done due priority; the first row's priority becomes 4.
        t.keys("l", "l", "l", "e", "C-u"); t.type("4"); t.keys("Enter")
        #expect(t.wait(for: "writes: 1"), "\(t.screen)")
        // The write waits for the lock; the browser does not: the cursor moves.
        t.keys("j")
        #expect(t.wait(for: "row 2/30"), "\(t.screen)")
        #expect(t.screen.contains("writes: 1"), "\(t.screen)")
        #expect(store.sql(row) == "3")

        holder.type("COMMIT; -- release"); holder.keys("Enter")
        #expect(t.wait(for: "saved priority"), "\(t.screen)")
        #expect(t.wait { !$0.contains("writes: 1") }, "\(t.screen)")
        #expect(store.sql(row) == "4")
        t.keys("q")
        #expect(t.wait(3) { _ in !t.alive })
    }
}
