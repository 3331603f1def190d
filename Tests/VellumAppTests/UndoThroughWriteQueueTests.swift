import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 12: undo and redo in the browser were saved on the main thread in the view
/// context; like every other browser write they go through the write queue now: the
/// key comes back before the save, the queue counts it, and a conflict found by the
/// queue asks mine/theirs with the action kept.
@MainActor @Suite(.serialized) struct UndoThroughWriteQueueTests {
    typealias Gate = WriteQueueEditTests.Gate

    /// A session on Task whose first row's priority was edited (and saved) to another value.
    /// A session on Task with its first row's priority typed into the editor (another value), not yet saved.
    func sessionEditingPriority() async throws -> (BrowserSession, ObjectID, before: String, mine: String) {
        let s = try await SessionLiveTests().session("Task")
        let id = try #require(s.rows).rowIDs[0]
        let edits = WriteQueueEditTests()
        let before = try edits.storedPriority(s, id)
        let mine = before == "4" ? "3" : "4"
        await edits.editPriority(s, mine)
        return (s, id, before, mine)
    }

    func editedSession() async throws -> (BrowserSession, ObjectID, before: String, mine: String) {
        let (s, id, before, mine) = try await sessionEditingPriority()
        let edits = WriteQueueEditTests()
        await s.handle(.enter)
        #expect(try edits.storedPriority(s, id) == mine)
        return (s, id, before, mine)
    }

    /// Found under ThreadSanitizer: `u` pressed after the save reached the file but before its
    /// result reached the loop said "nothing to undo"; it now waits for the save and undoes it.
    @Test func undoPressedWhileItsSaveIsInFlightWaitsForItAndUndoesIt() async throws {
        let (s, id, before, _) = try await sessionEditingPriority()
        let gate = Gate(s.container)
        await s.dispatch(.enter)          // the edit's save waits behind the gate
        await s.dispatch(.char("u"))
        #expect(s.state.statusMessage == "undo waits for the save in progress…")
        gate.open()
        await s.writesSettled()
        #expect(s.state.statusMessage == "undid edit priority")
        #expect(try WriteQueueEditTests().storedPriority(s, id) == before)
    }

    @Test func undoAndRedoAreQueuedWritesNotMainThreadSaves() async throws {
        let (s, id, before, mine) = try await editedSession()
        let stored = { try WriteQueueEditTests().storedPriority(s, id) }
        let gate = Gate(s.container)
        await s.dispatch(.char("u"))
        // The old code saved here, on the main thread: the row would already be back.
        #expect(s.container.pendingWriteCount == 2)
        #expect(s.state.statusMessage == "undoing edit priority…")
        #expect(!s.context.hasChanges)
        #expect(try stored() == mine)
        gate.open()
        await s.writesSettled()
        #expect(s.state.statusMessage == "undid edit priority")
        #expect(try stored() == before)
        #expect(try s.context.object(with: id).value(forKey: "priority") == .integer(Int64(before)!))

        let redoGate = Gate(s.container)
        await s.dispatch(.ctrl("r"))
        #expect(s.container.pendingWriteCount == 2)
        #expect(try stored() == before)
        redoGate.open()
        await s.writesSettled()
        #expect(s.state.statusMessage == "redid edit priority")
        #expect(try stored() == mine)
        // The redone action is the newest undo again.
        await s.handle(.char("u"))
        #expect(try stored() == before)
    }

    @Test func anUndoMeetingAnotherWritersChangeAsksAndKeepsTheAction() async throws {
        let (s, id, _, mine) = try await editedSession()
        let theirs = mine == "1" ? "2" : "1"
        let gate = Gate(s.container)
        await s.dispatch(.char("u"))
        // Another program writes the field after the key, before the queue gets to the undo.
        #expect(try sqliteShell(s.container.store.path, "UPDATE Task SET priority = \(theirs), _version = _version + 1 WHERE _pk = \(id.primaryKey!)") == 0)
        gate.open()
        await s.writesSettled()
        #expect(s.state.mode == .conflict)
        #expect(s.state.conflict?.replay == .undo)
        #expect(s.state.conflict?.theirs == theirs)
        #expect(try WriteQueueEditTests().storedPriority(s, id) == theirs)
        // Theirs: the undo is dropped; nothing more to undo.
        await s.handle(.char("t"))
        #expect(s.state.mode == .browse)
        #expect(s.state.statusMessage == "kept theirs; dropped the undo of edit priority")
        #expect(try WriteQueueEditTests().storedPriority(s, id) == theirs)
        await s.handle(.char("u"))
        #expect(s.state.statusMessage == "nothing to undo")
    }
}
