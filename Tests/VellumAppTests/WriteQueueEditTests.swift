import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The browser's writes go through the container's write queue: the loop carries
/// on while a save is in flight, the view receives it as a merge, undo still works,
/// a change made underneath asks mine/theirs, and the typed text survives a failure.
@MainActor @Suite(.serialized) struct WriteQueueEditTests {
    /// Holds the write queue until `open()`: whatever the browser enqueues waits behind it.
    final class Gate: Sendable {
        let semaphore = DispatchSemaphore(value: 0)
        init(_ container: PersistentContainer) {
            container.enqueue({ [semaphore] _ in semaphore.wait() }, completion: { _ in })
        }
        func open() { semaphore.signal() }
    }

    func type(_ s: BrowserSession, _ text: String) async { for c in text { await s.handle(.char(c)) } }

    /// Opens the editor on the first Task's priority and types `text` (Enter not pressed).
    func editPriority(_ s: BrowserSession, _ text: String) async {
        for _ in 0..<3 { await s.handle(.char("l")) }
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, text)
    }

    func storedPriority(_ s: BrowserSession, _ id: ObjectID) throws -> String {
        try sqliteScalar(s.container.store.path, "SELECT priority FROM Task WHERE _pk = \(id.primaryKey!)")
    }

    @Test func anEditIsWrittenByTheWriteQueueWhileTheLoopCarriesOn() async throws {
        let s = try await SessionLiveTests().session("Task")
        let id = try #require(s.rows).rowIDs[0]
        let before = try storedPriority(s, id)
        let mine = before == "4" ? "3" : "4"     // priorities go from 1 to 5
        await editPriority(s, mine)
        let gate = Gate(s.container)
        await s.dispatch(.enter)
        // The key came back before the write: the editor is closed, nothing is stored yet,
        // and the next key moves the cursor at once.
        #expect(s.state.mode == .browse && s.state.statusMessage == "saving priority…")
        #expect(s.container.pendingWriteCount == 2)
        #expect(!s.context.hasChanges)
        await s.dispatch(.char("j"))
        #expect(s.state.cursorRow == 1)
        #expect(try storedPriority(s, id) == before)
        gate.open()
        await s.writesSettled()
        #expect(s.state.statusMessage == "saved priority")
        #expect(try storedPriority(s, id) == mine)
        // The view context received it as a merge; undo takes it back.
        #expect(try s.context.object(with: id).value(forKey: "priority") == .integer(Int64(mine)!))
        #expect(s.state.flashes[id] == nil)
        await s.handle(.char("u"))
        #expect(s.state.statusMessage == "undid edit priority")
        #expect(try storedPriority(s, id) == before)
    }

    @Test func aChangeMadeWhileTheWriteWaitedAsksMineOrTheirs() async throws {
        let s = try await SessionLiveTests().session("Task")
        let id = try #require(s.rows).rowIDs[0]
        let before = try storedPriority(s, id)
        let theirs = before == "1" ? "2" : "1", mine = before == "4" ? "3" : "4"
        await editPriority(s, mine)
        let gate = Gate(s.container)
        await s.dispatch(.enter)
        // Another program writes the field after Enter, before the queue gets to the edit.
        #expect(try sqliteShell(s.container.store.path, "UPDATE Task SET priority = \(theirs), _version = _version + 1 WHERE _pk = \(id.primaryKey!)") == 0)
        gate.open()
        await s.writesSettled()
        #expect(s.state.mode == .conflict)
        #expect(s.state.conflict?.mine == mine && s.state.conflict?.theirs == theirs)
        #expect(try storedPriority(s, id) == theirs)
        await s.handle(.char("m"))
        #expect(s.state.mode == .browse && s.state.statusMessage == "saved priority (kept mine)")
        #expect(try storedPriority(s, id) == mine)
    }

    @Test func aWriteThatFailsOpensTheEditorAgainWithTheTypedText() async throws {
        let s = try await SessionLiveTests().session("Provider")
        let taken = try #require(try s.rows?.object(at: 1).value(forKey: "name").stringValue)
        let mine = try #require(try s.rows?.object(at: 0).value(forKey: "name").stringValue)
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, taken)
        await s.handle(.enter)
        // Provider names are unique: the save is refused, the text stays in the editor.
        #expect(s.state.mode == .edit)
        #expect(s.state.editor.text == taken)
        #expect(s.state.editError?.isEmpty == false)
        #expect(try sqliteScalar(s.container.store.path, "SELECT count(*) FROM Provider WHERE name = '\(mine.replacingOccurrences(of: "'", with: "''"))'") == "1")
        await s.handle(.escape)
        #expect(s.state.mode == .browse)
    }
}
