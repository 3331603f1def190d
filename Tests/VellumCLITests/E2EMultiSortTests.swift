import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: `:sort done,-priority,title` in the browser, at 80×24 and 120×40,
/// checked against the same order read from the store with sqlite3.
@Suite("E2E multi-column sort", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EMultiSortTests {
    @Test(arguments: [(80, 24), (120, 40)])
    func sortBySeveralKeysShowsTheOrderAndTheRowsFollowIt(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task", width: width, height: height)
        defer { t.kill() }
        t.keys(":"); t.type("sort done,-priority,title"); t.keys("Enter")
        #expect(t.wait(for: "sort: done ▲, priority ▼, title ▲"), "\(t.screen)")
        #expect(t.screen.contains("▼2"), "\(t.screen)")
        // The first row is the store's first in that order.
        let first = store.sql("SELECT title FROM Task ORDER BY done, priority DESC, title LIMIT 1")
        let lines = t.screen.split(separator: "\n")
        #expect(lines.count > 1 && lines[1].contains(first), "\(first)\n\(t.screen)")
        t.keys(":"); t.type("sort title sideways"); t.keys("Enter")
        #expect(t.wait(for: "'sideways' is not a direction"), "\(t.screen)")
    }
}
