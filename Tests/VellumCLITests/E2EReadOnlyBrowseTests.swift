import Foundation
import Testing

/// "Read-only use": the browser opened with `--read-only` says so and refuses edits
/// with a message; the file keeps its values.
@Suite("E2E read-only browsing", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EReadOnlyBrowseTests {
    @Test func readOnlyBrowserRefusesEditsWithAMessage() throws {
        let store = try E2EStore()
        let before = store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'")
        let t = Tmux(store.command + " --read-only")
        defer { t.kill() }
        #expect(t.wait(for: "read-only (--read-only)"), "\(t.screen)")
        t.keys(":"); t.type("goto Task"); t.keys("Enter")
        #expect(t.wait(for: "│ Task │ row 1/"), "\(t.screen)")
        t.keys("l", "l", "l", "e")
        #expect(t.wait(for: "opened read-only; edits are off"), "\(t.screen)")
        t.keys("C-u"); t.type("1"); t.keys("Enter")
        t.keys("q")
        #expect(t.wait(5) { _ in !t.alive }, "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == before)
    }
}
