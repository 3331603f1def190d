import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Marks, bulk edit and delete (one save, one undo step) and yank, through the
/// session: keys in, the store and the state checked.
@MainActor @Suite(.serialized) struct MarkedRowsTests {
    func count(_ s: BrowserSession, _ condition: String) throws -> String {
        try sqliteScalar(s.container.store.path, "SELECT count(*) FROM Task WHERE \(condition)")
    }

    func command(_ s: BrowserSession, _ line: String) async {
        await s.handle(.char(":"))
        for c in line { await s.handle(.char(c)) }
        await s.handle(.enter)
    }

    @Test func marksFollowRecordsNotRows() async throws {
        let s = try await SessionLiveTests().session("Task")
        let ids = try #require(s.rows).rowIDs
        await s.handle(.char("t")); await s.handle(.char("t"))
        #expect(s.state.marked == [ids[0], ids[1]] && s.state.cursorRow == 2)
        await s.handle(.char("t"))
        await s.handle(.char("k")); await s.handle(.char("t"))      // unmarks row 3
        #expect(s.state.marked == [ids[0], ids[1]])
        await s.handle(.char("~"))
        #expect(s.state.marked == Set(ids.dropFirst(2)))
        await s.handle(.char("U"))
        #expect(s.state.marked.isEmpty)
        await s.handle(.char("*"))
        #expect(s.state.marked.count == ids.count)
    }

    @Test func bulkEditIsOneSaveAndOneUndoStep() async throws {
        let s = try await SessionLiveTests().session("Task")
        for _ in 0..<3 { await s.handle(.char("t")) }
        for _ in 0..<3 { await s.handle(.char("l")) }      // priority
        #expect(s.state.columnNames[s.state.cursorColumn] == "priority")
        let before = try count(s, "priority = 5")
        await command(s, "set 5")
        #expect(s.state.mode == .confirmBulkEdit && s.state.statusMessage?.contains("3 Task records") == true)
        await s.handle(.char("y"))
        let marked = s.state.marked.compactMap(\.primaryKey).map(String.init).joined(separator: ",")
        #expect(try count(s, "priority = 5 AND _pk IN (\(marked))") == "3")
        await s.handle(.char("u"))
        #expect(try count(s, "priority = 5") == before)
        // The list shows the undone values too.
        let shown = try (0..<3).map { try #require(s.rows).object(at: $0).value(forKey: "priority") }
        let stored = try (0..<3).map { row in
            try sqliteScalar(s.container.store.path, "SELECT priority FROM Task WHERE _pk = \(try #require(s.rows?.rowIDs[row].primaryKey))")
        }
        #expect(shown.map(\.description) == stored)
        // Out of range for the rules: the whole block is refused, nothing written.
        await command(s, "set 9")
        await s.handle(.char("y"))
        #expect(try count(s, "priority = 9") == "0")
        #expect(s.state.statusIsError)
    }

    /// Per-row conflicts: a marked row another writer changed after the question showed
    /// it keeps their value, and the status names it with both values; the rest are set.
    @Test func bulkEditLeavesARowAnotherWriterChangedSinceTheQuestionAndNamesIt() async throws {
        let s = try await SessionLiveTests().session("Task")
        for _ in 0..<3 { await s.handle(.char("t")) }
        for _ in 0..<3 { await s.handle(.char("l")) }      // priority
        let marked = try #require(s.rows).rowIDs.prefix(3).compactMap(\.primaryKey)
        await command(s, "set 5")
        #expect(s.state.mode == .confirmBulkEdit)
        // While the question is open, another program sets the second row's priority.
        let path = s.container.store.path
        _ = try sqliteScalar(path, "UPDATE Task SET priority = 0, _version = _version + 1 WHERE _pk = \(marked[1]); SELECT 1")
        let title = try sqliteScalar(path, "SELECT title FROM Task WHERE _pk = \(marked[1])")
        await s.handle(.char("y"))
        await s.writesSettled()
        #expect(try count(s, "priority = 5 AND _pk IN (\(marked[0]), \(marked[2]))") == "2")
        #expect(try count(s, "priority = 0 AND _pk = \(marked[1])") == "1", "their value stays")
        #expect(await waitUntil { s.state.statusMessage?.contains("set priority of 2 Task records; 1 changed by another writer since you asked") == true },
                "\(s.state.statusMessage ?? "")")
        #expect(s.state.statusMessage?.contains("\(title) (") == true && s.state.statusMessage?.contains("→ 0)") == true, "\(s.state.statusMessage ?? "")")
        // The undo step takes back the two rows set, not theirs.
        await s.handle(.char("u"))
        await s.writesSettled()
        #expect(try count(s, "priority = 0 AND _pk = \(marked[1])") == "1")
        #expect(try count(s, "priority = 5 AND _pk IN (\(marked[0]), \(marked[2]))") == "0")
    }

    @Test func bulkDeleteAsksWithTheCountAndUndoesInOneStep() async throws {
        let s = try await SessionLiveTests().session("Task")
        let total = try count(s, "1")
        await s.handle(.char("t")); await s.handle(.char("t"))
        await s.handle(.char("d"))
        #expect(s.state.mode == .confirmDelete && s.state.statusMessage == "delete 2 Task records (marked)? y/n")
        await s.handle(.char("y"))
        #expect(try count(s, "1") == String(Int(total)! - 2))
        #expect(s.state.marked.isEmpty)
        await s.handle(.char("u"))
        #expect(try count(s, "1") == total)
    }

    /// `d` states what the delete rules would do before anything is deleted: a product takes
    /// its images along (cascade), a provider that still has products is refused (deny).
    @Test func deleteQuestionCountsCascadesAndRefusesADenialBeforeDeleting() async throws {
        let s = try await SessionLiveTests().session("Product")
        let path = s.container.store.path
        let keys = try #require(s.rows).rowIDs.map(\.primaryKey)
        let withImages = try keys.firstIndex { pk in
            try sqliteScalar(path, "SELECT count(*) FROM Image WHERE product = \(pk ?? -1)") != "0"
        }
        let row = try #require(withImages)
        for _ in 0..<row { await s.handle(.char("j")) }
        let pk = try #require(s.rows?.rowIDs[row].primaryKey)
        let images = try sqliteScalar(path, "SELECT count(*) FROM Image WHERE product = \(pk)")
        let imageWord = images == "1" ? "1 Image" : "\(images) Image records"
        await s.handle(.char("d"))
        #expect(s.state.mode == .confirmDelete)
        #expect(s.state.statusMessage == "delete this Product and, by cascade, \(imageWord)? y/n")
        #expect(s.state.deleteCascadeCount == Int(images))
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Image WHERE product = \(pk)") == images)
        await s.handle(.char("n"))
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product WHERE _pk = \(pk)") == "1")

        await s.handle(.char(":"))
        for c in "goto Provider" { await s.handle(.char(c)) }
        await s.handle(.enter)
        let providers = try sqliteScalar(path, "SELECT count(*) FROM Provider")
        await s.handle(.char("d"))
        #expect(s.state.mode == .browse && s.state.statusIsError)
        #expect(s.state.statusMessage?.hasPrefix("cannot delete: Provider.products still has") == true)
        #expect(s.state.statusMessage?.hasSuffix("its delete rule is deny; nothing deleted") == true)
        await s.handle(.char("y"))       // not a yes to anything: the question was withdrawn
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Provider") == providers)
    }

    @Test func yankKeepsTheRegisterAndAsksTheTerminal() async throws {
        let s = try await SessionLiveTests().session("Task")
        let requests = await s.handle(.char("y"))
        let title = try sqliteScalar(s.container.store.path, "SELECT title FROM Task WHERE _pk = \(try #require(s.rows?.rowIDs[0].primaryKey))")
        #expect(s.state.register == title)
        #expect(requests == [.copyToClipboard(title)])
        #expect(Screen.osc52("hi") == "\u{1B}]52;c;aGk=\u{07}")
        // ^Y pastes it into the editor.
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await s.handle(.ctrl("y"))
        #expect(s.state.editor.text == title)
    }
}
