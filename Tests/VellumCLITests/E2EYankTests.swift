import Foundation
import Testing

/// Issue 17: a value could not be copied. `y` copies the cell, `Y` the marked rows
/// (else the row) as TSV, `:yank` as text, TSV or JSON: to the terminal clipboard
/// with OSC 52 (tmux keeps it as a buffer with `set-clipboard on`) and to the
/// register that ^Y pastes into the field editor.
@Suite("E2E yank in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EYankTests {
    /// The clipboard as tmux received it, once it satisfies `check` (waited for; the
    /// last one seen otherwise, for the failure message).
    func clipboard(_ t: Tmux, _ check: @escaping (String) -> Bool) -> String {
        var seen = ""
        _ = t.wait(30) { _ in seen = t.tmux(["show-buffer"]).out; return check(seen) }
        return seen
    }

    @MainActor @Test func cellRowsAndJSONReachTheClipboardAndThePasteRegister() async throws {
        let store = try E2EStore()
        _ = store.sql("UPDATE Product SET name = 'Yank me', price = 12.5, stock = 7 WHERE _pk = (SELECT min(_pk) FROM Product)")
        let t = Tmux.browser(store.command, entity: "Product", width: 80, height: 24)
        defer { t.kill() }
        _ = t.tmux(["set-option", "-s", "set-clipboard", "on"])
        t.keys("/"); t.type("name == 'Yank me'"); t.keys("Enter")
        #expect(t.wait(for: "row 1/1"), "\(t.screen)")

        t.keys("y")
        #expect(clipboard(t) { $0 == "Yank me" } == "Yank me")
        t.keys("l", "y")
        #expect(clipboard(t) { $0 == "12.5" } == "12.5")
        t.keys("Y")
        let tsv = clipboard(t) { $0.contains("\n") }.components(separatedBy: "\n")
        #expect(tsv.count == 2 && tsv[0].hasPrefix("name\tprice\tstock\tsku") && tsv[1].hasPrefix("Yank me\t12.5\t7\t"), "\(tsv)")
        t.keys(":"); t.type("yank json"); t.keys("Enter")
        let json = clipboard(t) { $0.hasPrefix("[") }
        #expect(json.contains("\"Yank me\"") && json.contains("12.5"), "\(json)")

        // ^Y pastes the register into the field editor: the name into sku.
        t.keys("h", "y")
        #expect(clipboard(t) { $0 == "Yank me" } == "Yank me")
        t.keys("l", "l", "l", "e", "C-u", "C-y", "Enter")
        let stored1 = await waitUntil(timeout: 30) { store.sql("SELECT count(*) FROM Product WHERE sku = 'Yank me'") == "1" }
        #expect(stored1, "\(t.screen)")
    }

    @Test func markedRowsAreYankedInListOrder() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: 80, height: 24)
        defer { t.kill() }
        _ = t.tmux(["set-option", "-s", "set-clipboard", "on"])
        t.keys("S")
        #expect(t.wait(for: "name ▼"), "\(t.screen)")
        // The selected record keeps the cursor through the sort: back to the top first.
        t.keys("g", "t", "t", "t", "Y")
        let lines = clipboard(t) { $0.components(separatedBy: "\n").count == 4 }.components(separatedBy: "\n")
        let names = store.sql("SELECT name FROM Product ORDER BY name DESC LIMIT 3").components(separatedBy: "\n")
        #expect(lines.count == 4 && lines.dropFirst().map { $0.components(separatedBy: "\t")[0] } == names, "\(lines) \(names)")
        // The store is unchanged: yanking writes nothing.
        #expect(store.sql("SELECT count(*) FROM Product") == "200")
    }
}
