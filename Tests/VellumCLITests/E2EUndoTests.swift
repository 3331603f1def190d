import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue #11, items 5 and 11: undo, redo and "keep mine" against another
/// process writing the same record, driving the real `vellum` in tmux and
/// checking the file with the sqlite3 shell.
@Suite("E2E undo and conflicts", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EUndoTests {
    static let task = "title = 'Audit inventory #1'"

    func priority(_ store: E2EStore) -> String { store.sql("SELECT priority FROM Task WHERE \(Self.task)") }

    /// Sets row 1's priority (column 4) to `value` in the browser and waits for the save.
    func editPriority(_ t: Tmux, _ value: String) {
        t.keys("l", "l", "l", "e", "C-u"); t.type(value); t.keys("Enter")
        #expect(t.wait(for: "saved priority"), "\(t.screen)")
        t.keys("h", "h", "h")
    }

    @Test func undoNeverOverwritesAnotherWritersChange() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        #expect(priority(store) == "3")
        editPriority(t, "4")
        #expect(priority(store) == "4")
        _ = store.sql("UPDATE Task SET priority = 2, _version = _version + 1 WHERE \(Self.task)")
        t.keys("u")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        #expect(t.screen.contains("mine:   3"), "\(t.screen)")
        #expect(t.screen.contains("theirs: 2"), "\(t.screen)")
        #expect(priority(store) == "2")
        // Take theirs: the undo is dropped, theirs stays.
        t.keys("t")
        #expect(t.wait(for: "kept theirs"), "\(t.screen)")
        #expect(priority(store) == "2")
        t.keys("u")
        #expect(t.wait(for: "nothing to undo"), "\(t.screen)")
        #expect(priority(store) == "2")

        // Again, keeping mine: the undo overwrites theirs knowingly.
        editPriority(t, "5")
        _ = store.sql("UPDATE Task SET priority = 1, _version = _version + 1 WHERE \(Self.task)")
        t.keys("u")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        #expect(t.screen.contains("mine:   2") && t.screen.contains("theirs: 1"), "\(t.screen)")
        t.keys("m")
        #expect(t.wait(for: "undid edit priority"), "\(t.screen)")
        #expect(priority(store) == "2")
    }

    @Test func redoNeverOverwritesAnotherWritersChange() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        editPriority(t, "4")
        t.keys("u")
        #expect(t.wait(for: "undid edit priority"), "\(t.screen)")
        #expect(priority(store) == "3")
        _ = store.sql("UPDATE Task SET priority = 1, _version = _version + 1 WHERE \(Self.task)")
        t.keys("C-r")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        #expect(t.screen.contains("mine:   4") && t.screen.contains("theirs: 1"), "\(t.screen)")
        #expect(priority(store) == "1")
        t.keys("Escape")   // decide later: nothing written, the redo stays
        #expect(t.wait(until: { !$0.contains("Conflict:") }), "\(t.screen)")
        #expect(priority(store) == "1")
        t.keys("C-r")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        t.keys("m")
        #expect(t.wait(for: "redid edit priority"), "\(t.screen)")
        #expect(priority(store) == "4")
    }

    @Test func keepMineAfterADeleteRestoresTheWholeRecord() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        let fk = store.sql("SELECT name FROM pragma_table_info('Product') WHERE name LIKE '%provider%'")
        let columns = "_pk, price, stock, sku, updated, \(fk)"
        let first = "(SELECT _pk FROM Product ORDER BY name LIMIT 1)"
        let before = store.sql("SELECT \(columns) FROM Product WHERE _pk = \(first)")
        let key = store.sql("SELECT _pk FROM Product WHERE _pk = \(first)")
        #expect(!before.isEmpty && !key.isEmpty)
        t.keys("e", "C-u"); t.type("Mine again")
        #expect(t.wait(for: "Mine again"), "\(t.screen)")
        Thread.sleep(forTimeInterval: 0.3)   // let the app take every key before the row goes
        _ = store.sql("DELETE FROM Product WHERE _pk = \(key)")
        #expect(t.wait(for: "deleted this record"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "this record was deleted"), "\(t.screen)")
        t.keys("m")
        #expect(t.wait(for: "re-added"), "\(t.screen)")
        // The same row (same key, so the same ID URI) with every value as last seen and mine on top.
        #expect(store.sql("SELECT \(columns) FROM Product WHERE name = 'Mine again'") == before)
        #expect(store.sql("PRAGMA integrity_check") == "ok")
    }

    @Test func undoOfADeleteInTheBrowserRestoresTheSameRecord() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product")
        defer { t.kill() }
        let fk = store.sql("SELECT name FROM pragma_table_info('Product') WHERE name LIKE '%provider%'")
        let imageFK = store.sql("SELECT name FROM pragma_table_info('Image') WHERE name LIKE '%product%'")
        // A product with an image: its delete cascades to the image.
        let key = store.sql("SELECT min(\(imageFK)) FROM Image")
        let before = store.sql("SELECT _pk, name, price, stock, sku, updated, \(fk) FROM Product WHERE _pk = \(key)")
        let images = store.sql("SELECT group_concat(_pk) FROM Image WHERE \(imageFK) = \(key)")
        #expect(!images.isEmpty)
        t.keys("/"); t.type("SELF IN {\(key)}"); t.keys("Enter")
        #expect(t.wait(for: "row 1/1"), "\(t.screen)")
        t.keys("d")
        // The question counts what the cascade takes along, before anything is deleted.
        let cascaded = images.split(separator: ",").count
        #expect(t.wait(for: "Delete this record and \(cascaded) more by cascade?"), "\(t.screen)")
        #expect(store.sql("SELECT group_concat(_pk) FROM Image WHERE \(imageFK) = \(key)") == images)
        t.keys("y")
        #expect(t.wait(for: "deleted"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Product WHERE _pk = \(key)") == "0")
        #expect(store.sql("SELECT count(*) FROM Image WHERE \(imageFK) = \(key)") == "0")
        #expect(t.wait(for: "row 0/0") || t.screen.contains("no rows"), "\(t.screen)")
        t.keys("u")
        #expect(t.wait(for: "undid delete"), "\(t.screen)")
        #expect(t.wait(for: "row 1/1"), "\(t.screen)")   // back in the list, under the same ID
        #expect(t.screen.contains("Product p\(key)"), "\(t.screen)")
        #expect(store.sql("SELECT _pk, name, price, stock, sku, updated, \(fk) FROM Product WHERE _pk = \(key)") == before)
        #expect(store.sql("SELECT group_concat(_pk) FROM Image WHERE \(imageFK) = \(key)") == images)
        #expect(store.sql("PRAGMA foreign_key_check") == "")
    }
}
