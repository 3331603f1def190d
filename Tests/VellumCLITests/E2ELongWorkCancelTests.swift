import Foundation
import Testing

/// Issue 17, never blocking: a summary, find, grouping or export over a slow list
/// could not be stopped (only a filter or sort could). Each now says what it is
/// doing in the status bar, Esc or Ctrl-C stops it, and nothing changes.
@Suite("E2E cancelling long work in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ELongWorkCancelTests {
    /// A list whose query takes seconds: the slow regex of `E2EFilterCancelTests`,
    /// which no product matches, negated, so all 200 rows stay listed.
    static let slowFilter = "NOT (sku MATCHES '(x|xx|y)*a\\\\b')"

    func slowList() throws -> (E2EStore, Tmux) {
        let store = try E2EFilterCancelTests().slowStore()
        let t = Tmux.browser(store.commandInItsFolder, entity: "Product", width: 80, height: 24)
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        t.keys("/"); t.type(Self.slowFilter); t.keys("Enter")
        #expect(t.wait(300) { $0.contains("filter: NOT") && !$0.contains("filtering…") }, "\(t.screen)")
        return (store, t)
    }

    /// Presses `cancel` once the status says the work runs, and waits for `outcome`.
    func cancel(_ t: Tmux, running: String, with cancel: String, outcome: String) {
        #expect(t.wait(for: "\(running)… (Esc or Ctrl-C cancels)", 60), "\(t.screen)")
        t.keys(cancel)
        #expect(t.wait(for: outcome, 60), "\(t.screen)")
        // The list is as it was, and the browser takes keys again.
        #expect(t.screen.contains("/200"), "\(t.screen)")
    }

    @Test func summaryFindGroupAndExportAreCancellable() throws {
        let (store, t) = try slowList()
        defer { t.kill() }
        let before = store.sql("SELECT count(*), sum(price) FROM Product")

        t.keys("F")
        cancel(t, running: "summarizing", with: "Escape", outcome: "summary cancelled")
        #expect(!t.screen.contains("distinct"), "\(t.screen)")

        t.keys("j")
        #expect(t.wait(for: "row 2/200"), "\(t.screen)")
        t.keys("f"); t.type("Widget"); t.keys("Enter")
        cancel(t, running: "finding", with: "C-c", outcome: "find cancelled")
        #expect(t.screen.contains("row 2/200"), "\(t.screen)")

        t.keys(":"); t.type("group name"); t.keys("Enter")
        cancel(t, running: "grouping", with: "Escape", outcome: "group cancelled; the list is unchanged")

        t.keys(":"); t.type("export csv out.csv"); t.keys("Enter")
        cancel(t, running: "exporting", with: "Escape", outcome: "export cancelled; nothing written")
        #expect(!FileManager.default.fileExists(atPath: store.dir.path("out.csv")))
        let files = try FileManager.default.contentsOfDirectory(atPath: store.dir.url.path)
        #expect(!files.contains { $0.contains(".vellum-") }, "\(files)")

        #expect(t.alive)
        // The filter is still the one applied (a short message leaves it room on the status line).
        t.keys("U")
        #expect(t.wait(for: "│ row 2/200 │ filter: NOT (sku"), "\(t.screen)")
        #expect(store.sql("SELECT count(*), sum(price) FROM Product") == before)
    }
}
