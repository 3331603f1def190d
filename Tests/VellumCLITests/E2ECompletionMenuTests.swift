import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: "`:theme` (and every `:` command taking a name) shows the candidates in a
/// completion menu", driven in the real binary at 80×24 and 120×40.
@Suite("E2E completion menu", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ECompletionMenuTests {
    static let sizes = [(80, 24), (120, 40)]

    /// The screen's lines that are menu rows (`│ NAME │` left of the table's divider).
    func menuRows(_ screen: String) -> [String] {
        screen.split(separator: "\n").compactMap { line in
            guard let m = line.firstMatch(of: /^\s*│ (\S+) +│/) else { return nil }
            return String(m.output.1)
        }
    }

    @Test(arguments: sizes)
    func themeNamesShowInAMenuThatTabWalks(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "row 1/"), "\(t.screen)")
        t.keys(":"); t.type("theme ")
        // Every built-in theme is offered before anything is chosen.
        #expect(t.wait { menuRows($0).contains("default") && menuRows($0).contains("dracula") }, "\(t.screen)")
        t.type("d")
        #expect(t.wait { Set(menuRows($0)).isSuperset(of: ["default", "dracula"]) && !menuRows($0).contains("light") }, "\(t.screen)")
        // Tab walks the menu, Shift-Tab back; the candidate is in the line.
        t.keys("Tab")
        #expect(t.wait { $0.contains(":theme default") }, "\(t.screen)")
        t.keys("Tab")
        #expect(t.wait { $0.contains(":theme dracula") }, "\(t.screen)")
        t.keys("BTab")
        #expect(t.wait { $0.contains(":theme default") }, "\(t.screen)")
        t.keys("Tab", "Enter")
        #expect(t.wait(for: "theme dracula"), "\(t.screen)")
        #expect(menuRows(t.screen).isEmpty, "the menu closes with the line: \(t.screen)")
        // Esc in the middle of a walk closes the line and changes nothing.
        t.keys(":"); t.type("goto ")
        #expect(t.wait { menuRows($0).contains("Provider") }, "\(t.screen)")
        t.keys("Tab", "Escape")
        #expect(t.wait { menuRows($0).isEmpty && $0.contains("row 1/") }, "\(t.screen)")
        #expect(t.screen.contains("Product"))
    }
}
