import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 7 features end to end: summary overlay, find, grouping, completion, mouse.
@Suite("E2E browser features in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EFeatureTests {
    func open(_ store: E2EStore, entity: String) -> Tmux { Tmux.browser(store.command, entity: entity) }

    @Test func summaryOverlayFiltersOnEnter() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }
        t.keys("l", "F")   // done
        #expect(t.wait(for: "Summary of done (boolean)"), "\(t.screen)")
        #expect(t.screen.contains("count 30   nulls 0   distinct 2"), "\(t.screen)")
        #expect(t.screen.contains("█"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "filter: done == "), "\(t.screen)")
        #expect(!t.screen.contains("Summary of"))
    }

    /// A continuous column's summary is a histogram (bins, quartiles, deviation); Enter on a
    /// bin filters by its range, and the list then shows as many rows as sqlite3 counts in it.
    @Test(arguments: [(80, 24), (120, 40)])
    func summaryHistogramFiltersByABinsRange(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys("l", "F")   // price
        #expect(t.wait(for: "Summary of price (double)"), "\(t.screen)")
        for text in ["std dev", "median", "quartiles", " bin ", "[0, ", "bins of"] {
            #expect(t.screen.contains(text), "\(text): \(t.screen)")
        }
        t.keys("j", "Enter")
        #expect(t.wait { $0.contains("filter: price >= ") && !$0.contains("Summary of") }, "\(t.screen)")
        let screen = t.screen
        let filter = try #require(screen.range(of: #"price >= [0-9.]+ AND price < [0-9.]+"#, options: .regularExpression).map { String(screen[$0]) },
                                  "\(screen)")
        let expected = store.sql("SELECT count(*) FROM Product WHERE \(filter)")
        #expect(screen.contains("row 1/\(expected) ") || screen.contains("row 1/\(expected)│") || screen.contains("row 1/\(expected)\n"),
                "\(filter): sqlite3 counts \(expected): \(screen)")
        t.keys("q")
    }

    @Test func findGroupAndCompletion() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Provider")
        defer { t.kill() }
        t.keys("f"); t.type("fjord"); t.keys("Enter")
        #expect(t.wait(for: "fjord: match 1 of 1"), "\(t.screen)")
        #expect(t.screen.contains("Provider p9") || t.screen.contains("Fjord Outfitters"), "\(t.screen)")
        t.keys(":"); t.type("gr"); t.keys("Tab"); t.type("co"); t.keys("Tab")
        #expect(t.wait(for: ":group country"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "grouped by country"), "\(t.screen)")
        #expect(t.screen.contains("▾ Brazil (1)"), "\(t.screen)")
        // z folds the cursor's section to its line; Z unfolds them all again.
        t.keys("g", "z")
        #expect(t.wait(for: "▸ Brazil (1)"), "\(t.screen)")
        #expect(!t.screen.contains("│Café São Paulo"), "the folded section's row is hidden: \(t.screen)")
        t.keys("Z")
        #expect(t.wait(for: "▸ Canada (1)"), "Z folds all: \(t.screen)")
        t.keys("Z")
        #expect(t.wait { $0.contains("▾ Brazil (1)") && $0.contains("▾ Canada (1)") }, "\(t.screen)")
    }

    @Test func mouseClickOpensEntityAndSelectsRow() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }
        // X10 mouse reports: ESC [ M, button+32, column+33, row+33 (0-based cells); press, then release.
        func click(x: Int, y: Int) {
            let at = "\(Character(Unicode.Scalar(UInt8(33 + x))))\(Character(Unicode.Scalar(UInt8(33 + y))))"
            t.type("\u{1B}[M " + at)
            t.type("\u{1B}[M#" + at)
        }
        click(x: 2, y: 3)   // sidebar: Provider
        #expect(t.wait(for: "│ Provider │ row 1/10"), "\(t.screen)")
        click(x: 30, y: 3)  // third table row (row 0 is the header)
        #expect(t.wait(for: "│ Provider │ row 3/10"), "\(t.screen)")
    }
}
