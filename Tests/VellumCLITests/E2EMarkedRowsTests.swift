import Foundation
import Testing

/// Issue 17: rows could not be selected, nor edited or deleted in bulk. `t`, `T`,
/// `*`, `~`, `U` mark rows; `:set VALUE` and `d` act on the marked records in one
/// save, after a question naming the count, and `u` undoes each in one step.
@Suite("E2E marked rows and bulk actions in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EMarkedRowsTests {
    func open() throws -> (E2EStore, Tmux) {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: 80, height: 24)
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        return (store, t)
    }

    func count(_ store: E2EStore, _ condition: String) -> String {
        store.sql("SELECT count(*) FROM Product WHERE \(condition)")
    }

    @MainActor @Test func markedRowsAreEditedAndDeletedInOneUndoableStep() async throws {
        let (store, t) = try open()
        defer { t.kill() }
        t.keys("t", "t", "t")
        #expect(t.wait(for: "row 4/200 │ 3 marked"), "\(t.screen)")
        #expect(t.screen.components(separatedBy: "•").count - 1 == 3, "\(t.screen)")

        // Bulk edit of the price column: asked with the count, one save.
        t.keys("l", ":"); t.type("set 7.25"); t.keys("Enter")
        #expect(t.wait(for: "Set the column of the 3 marked records? y = yes"), "\(t.screen)")
        t.keys("y")
        // As for any edit, undo takes the write once it came back (the status says so). Looked
        // for first: an informational message goes after a few seconds of the loop's clock.
        #expect(t.wait(for: "set price of 3 Product"), "\(t.screen)")
        let stored1 = await waitUntil(timeout: 30) { count(store, "price = 7.25") == "3" }
        #expect(stored1, "\(t.screen)")
        // One undo step restores all three: a `u` before the save's result reached the loop
        // waits for it (`undoPressedWhileItsSaveIsInFlightWaitsForItAndUndoesIt`).
        t.keys("u")
        #expect(t.wait(for: "undid"), "\(t.screen)")
        let stored2 = await waitUntil(timeout: 30) { count(store, "price = 7.25") == "0" }
        #expect(stored2, "\(t.screen)")
        #expect(t.wait { !$0.contains("7.25") }, "\(t.screen)")

        // A value the rules refuse for any record writes nothing at all.
        t.keys(":"); t.type("set -1"); t.keys("Enter")
        #expect(t.wait(for: "Set the column of the 3 marked records?"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "set price: value must be"), "\(t.screen)")
        #expect(count(store, "price < 0") == "0")

        // Any other key than y is a no.
        t.keys(":"); t.type("set 1"); t.keys("Enter")
        #expect(t.wait(for: "Set the column of the 3 marked records?"), "\(t.screen)")
        t.keys("n")
        #expect(t.wait(for: "set cancelled"), "\(t.screen)")
        #expect(count(store, "price = 1") == "0")

        // Bulk delete: asked with the count, one save, one undo step.
        t.keys("d")
        #expect(t.wait(for: "Delete the 3 marked records? y = yes"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "deleted 3 Product"), "\(t.screen)")
        let stored3 = await waitUntil(timeout: 30) { store.sql("SELECT count(*) FROM Product") == "197" }
        #expect(stored3, "\(t.screen)")
        #expect(t.wait(for: "row 1/197"), "\(t.screen)")
        #expect(!t.screen.contains("marked"), "\(t.screen)")
        t.keys("u")
        let stored4 = await waitUntil(timeout: 30) { store.sql("SELECT count(*) FROM Product") == "200" }
        #expect(stored4, "\(t.screen)")
        #expect(t.wait(for: "/200"), "\(t.screen)")
    }

    @Test func rangeAllInvertAndUnmark() throws {
        // The store is kept: dropping it removed its folder under the running browser, whose
        // long work (the filter below) opens a reader connection of its own on the file.
        let (store, t) = try open()
        defer { t.kill(); withExtendedLifetime(store) {} }
        t.keys("5", "G", "t")
        #expect(t.wait(for: "row 6/200 │ 1 marked"), "\(t.screen)")
        t.keys("8", "G", "T")
        #expect(t.wait(for: "row 8/200 │ 4 marked"), "\(t.screen)")
        t.keys("~")
        #expect(t.wait(for: "row 8/200 │ 196 marked"), "\(t.screen)")
        t.keys("U")
        #expect(t.wait(for: "no rows marked"), "\(t.screen)")
        #expect(!t.screen.contains("•"), "\(t.screen)")
        // All listed rows: those the filter lets through.
        t.keys("/"); t.type("price < 10"); t.keys("Enter")
        #expect(t.wait(for: "filter: price < 10"), "\(t.screen)")
        let listed = t.screen.firstMatch(of: /row 1\/(\d+)/).map { String($0.1) } ?? "?"
        t.keys("*")
        #expect(t.wait(for: "│ \(listed) marked"), "\(t.screen)")
    }
}
