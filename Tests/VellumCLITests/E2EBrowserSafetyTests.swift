import Foundation
import Testing

/// Issue #11, browser items 6, 7, 9, 10 and 17: keys must act on the record the
/// user sees, and never on anything else. Each drives the real binary in tmux and
/// checks the file with the sqlite3 shell.
@Suite("E2E: browser keys act only on what is shown", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EBrowserSafetyTests {
    /// The primary key in the detail pane's header ("Product p42").
    func shownKey(_ t: Tmux, _ entity: String) -> String? {
        let screen = t.screen
        guard let r = screen.range(of: "(?m)│ \(entity) p[0-9]+( |$)", options: .regularExpression) else { return nil }
        return String(screen[r].dropFirst(entity.count + 4)).trimmingCharacters(in: .whitespaces)
    }

    /// Item 6: sorted by price, editing row 1's price moves it to the end; the
    /// selection goes with it, and `d` deletes that record, not the new row 1.
    @Test func localEditThatMovesARowKeepsTheSelectionOnTheRecord() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        t.keys("l", "s")
        #expect(t.wait(for: "sort: price ▲"), "\(t.screen)")
        t.keys("g")
        let cheapest = store.sql("SELECT _pk FROM Product ORDER BY price, _pk LIMIT 2").split(separator: "\n").map(String.init)
        #expect(cheapest.count == 2)
        #expect(t.wait { _ in shownKey(t, "Product") == cheapest[0] }, "\(t.screen)")
        t.keys("e", "C-u"); t.type("999"); t.keys("Enter")
        #expect(t.wait(for: "saved price"), "\(t.screen)")
        #expect(t.wait(for: "row 200/200"), "\(t.screen)")
        #expect(shownKey(t, "Product") == cheapest[0], "\(t.screen)")
        t.keys("d")
        #expect(t.wait(for: "y/n"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "deleted"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE _pk = \(cheapest[0])") == "0")
        #expect(store.sql("SELECT count(*) FROM Product WHERE _pk = \(cheapest[1])") == "1")
        #expect(store.sql("SELECT count(*) FROM Product") == "199")
    }

    /// Item 7: typing a search and pressing Enter sets the first match; a search
    /// matching nothing sets nothing; ∅ clears only when chosen.
    /// Found by the randomized proof: choosing in the picker after another writer set the
    /// same to-one (while the picker was open) overwrote their choice without a word.
    @Test func pickerNeverOverwritesAnotherWritersChangeUnseen() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        #expect(t.wait { _ in shownKey(t, "Product") != nil }, "\(t.screen)")
        let pk = try #require(shownKey(t, "Product"))
        func provider() -> String {
            store.sql("SELECT ifnull(v.name, 'NULL') FROM Product p LEFT JOIN Provider v ON p.provider = v._pk WHERE p._pk = \(pk)")
        }
        t.keys("Tab", "j", "j", "j", "j", "j", "e")
        #expect(t.wait(for: "search:"), "\(t.screen)")
        t.type("kyoto")
        #expect(t.wait(for: "Kyoto Crafts"), "\(t.screen)")
        // Another program sets the provider while the picker is open.
        let theirs = store.sql("SELECT name FROM Provider WHERE name <> 'Kyoto Crafts' AND _pk <> ifnull((SELECT provider FROM Product WHERE _pk = \(pk)), -1) ORDER BY _pk LIMIT 1")
        _ = store.sql("UPDATE Product SET provider = (SELECT _pk FROM Provider WHERE name = '\(theirs.replacingOccurrences(of: "'", with: "''"))') WHERE _pk = \(pk)")
        #expect(t.wait(for: "│ provider  \(theirs)"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "provider is now \(theirs)"), "\(t.screen)")
        #expect(provider() == theirs)
        // Enter again, knowingly, sets mine.
        t.keys("Enter")
        #expect(t.wait(for: "provider = Kyoto Crafts"), "\(t.screen)")
        #expect(provider() == "Kyoto Crafts")
    }

    @Test func pickerSearchThenEnterSetsTheFirstMatch() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        #expect(t.wait { _ in shownKey(t, "Product") != nil }, "\(t.screen)")
        let pk = try #require(shownKey(t, "Product"))
        func provider() -> String {
            store.sql("SELECT ifnull(v.name, 'NULL') FROM Product p LEFT JOIN Provider v ON p.provider = v._pk WHERE p._pk = \(pk)")
        }
        // Detail fields: name price stock sku updated provider images.
        t.keys("Tab", "j", "j", "j", "j", "j", "e")
        #expect(t.wait(for: "search:"), "\(t.screen)")
        t.type("kyoto")
        #expect(t.wait(for: "Kyoto Crafts"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "provider = Kyoto Crafts"), "\(t.screen)")
        #expect(provider() == "Kyoto Crafts")
        // No match: Enter refuses, nothing is written.
        t.keys("e")
        #expect(t.wait(for: "search:"), "\(t.screen)")
        t.type("zzz"); t.keys("Enter")
        #expect(t.wait(for: "no Provider matches 'zzz'"), "\(t.screen)")
        #expect(provider() == "Kyoto Crafts")
        t.keys("Escape")
        #expect(t.wait(for: "picker cancelled"), "\(t.screen)")
        // ∅ chosen explicitly clears, and says so.
        t.keys("e")
        #expect(t.wait(for: "search:"), "\(t.screen)")
        t.keys("PageUp", "PageUp", "PageUp", "Enter")
        #expect(t.wait(for: "provider cleared"), "\(t.screen)")
        #expect(provider() == "NULL")
    }

    /// Item 9: a filter or sort that does not validate is not applied nor shown,
    /// and a semantic error keeps the `/` prompt open like a syntax error.
    @Test func failedFilterOrSortIsNotAppliedAndKeepsThePrompt() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        let before = store.sql("SELECT group_concat(title || priority, ',') FROM Task")
        t.keys("/"); t.type("title CONTAINS 3"); t.keys("Enter")
        #expect(t.wait(for: "CONTAINS needs strings"), "\(t.screen)")
        // Still in the prompt: what is typed next is filter text, not commands.
        t.keys("C-u"); t.type("priority > 4"); t.keys("Enter")
        #expect(t.wait(for: "filter: priority > 4"), "\(t.screen)")
        #expect(t.screen.contains("row 1/6"), "\(t.screen)")
        #expect(!t.screen.contains("title CONTAINS 3"), "\(t.screen)")
        // From the command line: refused, the line stays open, the previous filter stays active.
        t.keys(":"); t.type("filter title CONTAINS 3"); t.keys("Enter")
        #expect(t.wait(for: "CONTAINS needs strings"), "\(t.screen)")
        t.keys("C-u"); t.type("sort nosuchkey"); t.keys("Enter")
        #expect(t.wait(for: "sort: Task has no property 'nosuchkey'"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "filter: priority > 4"), "\(t.screen)")
        #expect(t.screen.contains("row 1/6") && !t.screen.contains("filter: title"), "\(t.screen)")
        #expect(!t.screen.contains("sort: nosuchkey") && t.screen.contains("title ▲"), "\(t.screen)")
        // Esc after an error in the prompt leaves the active filter as it was.
        t.keys("/", "C-u"); t.type("nokey == 1"); t.keys("Enter")
        #expect(t.wait(for: "Task has no property 'nokey'"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "filter: priority > 4"), "\(t.screen)")
        #expect(t.screen.contains("row 1/6"), "\(t.screen)")
        #expect(store.sql("SELECT group_concat(title || priority, ',') FROM Task") == before)
    }

    /// Item 10: Esc closes editors and prompts only; after an edit it does not leave
    /// the list, so the next keys still edit this list's records. Bksp goes back.
    @Test func escapeNeverLeavesTheList() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        t.keys(":"); t.type("goto Product"); t.keys("Enter")
        #expect(t.wait(for: "│ Product │ row 1/200"), "\(t.screen)")
        t.keys("e", "C-u"); t.type("Zed"); t.keys("Enter")
        #expect(t.wait(for: "saved name"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "nothing to close"), "\(t.screen)")
        t.keys("k")    // "Zed" went last by name, the selection with it
        #expect(t.wait(for: "│ Product │ row 199/200"), "\(t.screen)")
        t.keys("e", "C-u"); t.type("Zed two"); t.keys("Enter")
        #expect(t.wait(for: "saved name"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE name IN ('Zed', 'Zed two')") == "2")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title LIKE 'Zed%'") == "0")
        // Esc in the editor cancels; a second Esc stays in the list.
        t.keys("e")
        #expect(t.wait(for: "Enter save"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "edit cancelled"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait(for: "nothing to close"), "\(t.screen)")
        #expect(t.screen.contains("│ Product │"), "\(t.screen)")
        // Backspace is the key that goes back.
        t.keys("BSpace")
        #expect(t.wait(for: "│ Task │ row"), "\(t.screen)")
    }

    /// Item 17: keys typed while "Terminal too small" is shown reach neither the
    /// open editor nor any action.
    @Test func keysWhileTerminalTooSmallReachNothing() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Audit inventory #1'") == "1")
        t.keys("e")
        #expect(t.wait(for: "Enter save"), "\(t.screen)")
        _ = t.tmux(["resize-window", "-t", t.name, "-x", "40", "-y", "10"])
        #expect(t.wait(for: "Terminal too small"), "\(t.screen)")
        t.type("zz"); t.keys("Enter", "d", "y")
        #expect(t.wait(for: "keys ignored: 5"), "\(t.screen)")
        _ = t.tmux(["resize-window", "-t", t.name, "-x", "120", "-y", "40"])
        #expect(t.wait(for: "Enter save"), "\(t.screen)")   // still the same editor
        t.keys("Escape")
        #expect(t.wait(for: "edit cancelled"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Audit inventory #1'") == "1")
        #expect(store.sql("SELECT count(*) FROM Task") == "30")
    }
}
