import Foundation
import Testing

/// Keys that reach the real binary through ncurses (not only through
/// `KeyDecoder`): word motion in the field editor, and the help overlay at the
/// classic 80×24 size.
@Suite("E2E keys and help in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EKeyTests {
    @Test func ctrlAndAltArrowsMoveByWordInTheFieldEditor() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        // The first row's title is "Audit inventory #1"; the editor opens with the cursor at the end.
        t.keys("e")
        #expect(t.wait(for: "Enter save"), "\(t.screen)")
        t.keys("C-Left", "C-Left"); t.type("big ")
        t.keys("C-Right"); t.type("!")
        t.keys("M-Left"); t.type("(")
        t.keys("Enter")
        #expect(t.wait(for: "saved title"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Audit big (inventory! #1'") == "1",
                "\(store.sql("SELECT title FROM Task WHERE title LIKE 'Audit%'"))")
    }

    @Test func helpScrollsAt80x24() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: 80, height: 24)
        defer { t.kill() }   // failed expectations may keep `t` alive
        t.keys("?")
        #expect(t.wait(for: "↓ more"), "\(t.screen)")
        #expect(t.screen.contains("Keys") && t.screen.contains("next row / entity"), "\(t.screen)")
        #expect(t.screen.range(of: "lines 1–[0-9]+ of [0-9]+", options: .regularExpression) != nil, "\(t.screen)")
        #expect(!t.screen.contains(":export csv|json PATH"), "\(t.screen)")
        // G: the end, with the last binding line of the help.
        t.keys("G")
        #expect(t.wait(for: ":export csv|json PATH"), "\(t.screen)")
        #expect(t.screen.contains("↑ more") && !t.screen.contains("next row / entity"), "\(t.screen)")
        // k, PgUp, g move back up; Esc closes.
        t.keys("g")
        #expect(t.wait(for: "next row / entity"), "\(t.screen)")
        t.keys("j", "PageDown")
        #expect(t.wait(for: "↑↓ more"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait { !$0.contains("more") && $0.contains("row 1/200") }, "\(t.screen)")
    }
}
