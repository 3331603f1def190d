import Foundation
import Testing

/// Issue 17, never blocking: a filter or sort ran its SQL on the browser's main thread
/// while a watcher thread read the terminal only for Esc and Ctrl-C, dropping every other
/// key typed meanwhile. Now the query runs on a reader of its own: `j`/`k` move the cursor
/// on the list as it was while the status still says what runs, and Esc stops it with the
/// old list intact.
@Suite("E2E never blocking in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ENeverBlockingTests {
    static let sizes = [(80, 24), (120, 40)]

    @Test(arguments: sizes)
    func keysTypedWhileAFilterOrSortRunsAreNotDropped(_ width: Int, _ height: Int) throws {
        // 60 slow products: every query of the list filtered by the regex takes seconds.
        let store = try E2EFilterCancelTests().slowStore(60)
        let t = Tmux.browser(store.commandInItsFolder, entity: "Product", width: width, height: height)
        defer { t.kill() }
        let firstName = "Classic Amber"
        #expect(t.wait(for: firstName), "\(t.screen)")

        // A filter that matches nothing, slowly: the keys typed meanwhile move the cursor.
        t.keys("/"); t.type("sku MATCHES '(x|xx|y)*a\\\\b'"); t.keys("Enter")
        #expect(t.wait(for: "filtering… (Esc or Ctrl-C cancels)"), "\(t.screen)")
        t.keys("j", "j", "j", "k")
        #expect(t.wait { $0.contains("row 3/200") && $0.contains("filtering… (Esc or Ctrl-C cancels)") }, "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "filter cancelled; the list is unchanged"), "\(t.screen)")
        #expect(t.screen.contains("row 3/200") && t.screen.contains(firstName) && !t.screen.contains("filter: sku"), "\(t.screen)")

        // The same regex negated keeps every row; once it is applied, a sort runs it again.
        t.keys("/", "C-u"); t.type("NOT (sku MATCHES '(x|xx|y)*a\\\\b')"); t.keys("Enter")
        #expect(t.wait(300) { $0.contains("filter: NOT") && !$0.contains("filtering…") }, "\(t.screen)")
        let before = t.screen
        t.keys("S")
        #expect(t.wait(for: "sorting… (Esc or Ctrl-C cancels)"), "\(t.screen)")
        t.keys("k")
        #expect(t.wait { $0.contains("row 2/200") && $0.contains("sorting… (Esc or Ctrl-C cancels)") }, "\(t.screen)")
        t.keys("j")
        #expect(t.wait { $0.contains("row 3/200") && $0.contains("sorting…") }, "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "sort cancelled; the list is unchanged"), "\(t.screen)")
        // The list as it was: same rows in the same order (the first two lines, the header and
        // the first row, are unchanged), the cursor where the keys put it, the name order kept.
        let lines = t.screen.split(separator: "\n")
        #expect(Array(lines.prefix(3)) == Array(before.split(separator: "\n").prefix(3)), "\(t.screen)")
        #expect(t.screen.contains("row 3/200") && t.screen.contains("name ▲") && t.screen.contains(firstName), "\(t.screen)")
        #expect(t.alive)
    }
}
