import Foundation
import Testing

/// Issue 11, critical 2: a slow filter froze the browser and ignored Ctrl-C. Esc or
/// Ctrl-C while it runs stops the query; the list keeps its previous filter.
@Suite("E2E filter cancellation in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EFilterCancelTests {
    /// The demo store with `slow` products (last by name) whose sku is 20,000 characters:
    /// matching `(x|xx|y)*a\b` against them takes seconds.
    func slowStore(_ slow: Int = 25) throws -> E2EStore {
        let store = try E2EStore()
        _ = store.sql("""
            UPDATE Product SET sku = printf('%.*c', 20000, 'x') || 'b'
            WHERE _pk IN (SELECT _pk FROM Product ORDER BY name DESC LIMIT \(slow))
            """)
        #expect(store.sql("SELECT count(*) FROM Product WHERE length(sku) > 10000") == "\(slow)")
        return store
    }

    /// An invalid pattern is an error on one status line, and the list keeps all its rows.
    @Test func invalidRegexFilterIsAnErrorNotNoMatch() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        t.keys("/"); t.type("NOT (name MATCHES '[a-z')"); t.keys("Enter")
        #expect(t.wait(for: "invalid regular expression: missing ']'"), "\(t.screen)")
        // The prompt stays open with the reason (item 9); Esc closes it and the list is whole.
        t.keys("Escape")
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        #expect(!t.screen.contains("no records match"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product") == "200")
    }

    @Test(arguments: ["Escape", "C-c"])
    func slowFilterIsCancellable(_ key: String) throws {
        let store = try slowStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        t.keys("/"); t.type("sku MATCHES '(x|xx|y)*a\\\\b'"); t.keys("Enter")
        #expect(t.wait(for: "Esc or Ctrl-C cancels"), "\(t.screen)")
        t.keys(key)
        // One row's match is not interrupted: the cancel lands after it (well under a second here).
        #expect(t.wait(for: "filter cancelled", 30), "\(t.screen)")
        // Not applied: all 200 rows, no active filter; and the browser takes keys again.
        #expect(t.screen.contains("row 1/200"), "\(t.screen)")
        #expect(!t.screen.contains("filter: sku"), "\(t.screen)")
        t.keys("j")
        #expect(t.wait(for: "row 2/200"), "\(t.screen)")
        #expect(t.alive)
        // Not pressed: the same filter finishes (it selects nothing) and is applied.
        t.keys("/", "C-u"); t.type("sku MATCHES '(x|xx|y)*a\\\\b'"); t.keys("Enter")
        #expect(t.wait(for: "no records match the filter", 300), "\(t.screen)")
        #expect(t.screen.contains("filter: sku") && !t.screen.contains("filtering…"), "\(t.screen)")
    }
}
