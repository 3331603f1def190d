import Foundation
import Testing
@testable import VellumStore

/// An action recorded by one context (a write-queue block's) and kept on another
/// stack is undone and redone there, inserts included (their temporary IDs resolve).
@Suite struct UndoActionTests {
    @Test func anActionTakenFromOneStackIsUndoneOnAnother() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let writer = try ManagedObjectContext(store: store)
        let recorded = UndoStack()
        writer.undoStack = recorded
        recorded.beginGroup("Add Tea")
        _ = try writer.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        let action = try #require(recorded.takeLastAction())
        try writer.save()
        #expect(action.name == "Add Tea" && !recorded.canUndo)

        let view = try ManagedObjectContext(store: store)
        let kept = UndoStack()
        view.undoStack = kept
        kept.push(action)
        #expect(kept.undoActionName == "Add Tea")
        let c = try Connection(path: dir.file("shop.sqlite").path)
        #expect(try c.scalarInt("SELECT count(*) FROM Product") == 1)
        #expect(try kept.undo(in: view) == "Add Tea")
        try view.save()
        #expect(try c.scalarInt("SELECT count(*) FROM Product") == 0)
        #expect(try kept.redo(in: view) == "Add Tea")
        try view.save()
        #expect(try c.rows("SELECT name, price FROM Product") == [[.string("Tea"), .double(1)]])
    }
}
