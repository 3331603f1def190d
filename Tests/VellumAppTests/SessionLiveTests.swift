import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Live rows, undo, conflicts and relationship navigation on a BrowserSession.
@MainActor @Suite(.serialized) struct SessionLiveTests {
    func session(_ entity: String) async throws -> BrowserSession {
        let url = try SessionTests.makeStore()
        let session = BrowserSession(container: try SessionTests.open(url))
        await session.handle(.char(":"))
        for c in "goto \(entity)" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.currentEntityName == entity)
        return session
    }

    func type(_ s: BrowserSession, _ text: String) async { for c in text { await s.handle(.char(c)) } }

    @Test func viewContextIsStrict() async throws {
        let s = try await session("Task")
        #expect(s.context.mergePolicy == .error)
        #expect(s.context.undoStack === s.undoStack)
    }

    @Test func selectionFollowsTheRecordWhenRowsMove() async throws {
        let s = try await session("Task")
        for _ in 0..<5 { await s.handle(.char("j")) }
        let id = try #require(s.rows).rowIDs[5]
        // Sorted by title: "AAA" lands first and pushes every row down.
        _ = try await s.container.enqueue { ctx in try ctx.insert("Task", values: ["title": .string("AAA queued")]).objectID }
        #expect(await waitUntil { s.state.rowCount == 31 })
        #expect(s.state.cursorRow == 6)
        #expect(try #require(s.rows).rowIDs[s.state.cursorRow] == id)
        #expect(s.entityCounts[3] == 31)
        #expect(!s.state.flashes.isEmpty)
    }

    @Test func undoAndRedoAfterSave() async throws {
        let s = try await session("Task")
        for _ in 0..<3 { await s.handle(.char("l")) }
        let object = try #require(s.rows).object(at: 0)
        let before = try object.value(forKey: "priority")
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, "5"); await s.handle(.enter)
        #expect(try object.value(forKey: "priority") == .integer(5))
        #expect(!s.context.hasChanges)
        await s.handle(.char("u"))
        #expect(try object.value(forKey: "priority") == before)
        #expect(!s.context.hasChanges)
        await s.handle(.ctrl("r"))
        #expect(try object.value(forKey: "priority") == .integer(5))
        // Add and delete undo too.
        await s.handle(.char("a"))
        #expect(s.state.rowCount == 31)
        await s.handle(.char("u"))
        #expect(await waitUntil { s.state.rowCount == 30 })
    }

    @Test func conflictWhenTheEditedRecordChangesUnderneath() async throws {
        let s = try await session("Task")
        for _ in 0..<3 { await s.handle(.char("l")) }
        let id = try #require(s.rows).rowIDs[0]
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, "5")
        try await s.container.enqueue { ctx in try ctx.object(with: id).setValue(.integer(1), forKey: "priority") }
        // The editor says so and stays open; Enter asks.
        #expect(await waitUntil { s.state.editNotice != nil })
        #expect(s.state.mode == .edit)
        #expect(s.state.editNotice?.contains("set priority to 1") == true, "\(s.state.editNotice ?? "")")
        await s.handle(.enter)
        #expect(s.state.mode == .conflict)
        #expect(s.state.conflict?.mine == "5")
        #expect(s.state.conflict?.theirs == "1")
        await s.handle(.char("t"))
        #expect(s.state.mode == .browse)
        #expect(try s.context.object(with: id).value(forKey: "priority") == .integer(1))
        // Deleted underneath: the typed text is kept for a re-add.
        for _ in 0..<3 { await s.handle(.char("h")) }
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, "Mine")
        try await s.container.enqueue { ctx in try ctx.delete(ctx.object(with: id)) }
        #expect(await waitUntil { s.state.editNotice?.contains("deleted this record") == true })
        await s.handle(.enter)
        #expect(s.state.mode == .conflict)
        #expect(s.state.conflict?.deleted == true)
        #expect(s.state.conflict?.mine == "Mine")
        await s.handle(.char("m"))
        #expect(s.state.mode == .browse)
        #expect(try s.context.count(FetchRequest(entityName: "Task", predicate: VellumStore.QueryPredicate(format: "title == 'Mine'"))) == 1)
    }

    /// Regression (CI, stop 23): a change underneath used to open the mine/theirs prompt
    /// at once, mid-typing, so the next typed letters answered it (`m` kept a half-typed
    /// value, `t` threw the typing away). Now the editor keeps every key and Enter asks.
    @Test func keysTypedAfterAnotherWritersChangeGoToTheEditorNotAPrompt() async throws {
        let s = try await session("Task")
        let id = try #require(s.rows).rowIDs[0]
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, "Mi")
        try await s.container.enqueue { ctx in try ctx.object(with: id).setValue(.string("Theirs"), forKey: "title") }
        #expect(await waitUntil { s.state.editNotice != nil })
        await type(s, "ne to keep")
        #expect(s.state.mode == .edit)
        #expect(s.state.editor.text == "Mine to keep")
        await s.handle(.enter)
        #expect(s.state.mode == .conflict)
        #expect(s.state.conflict?.mine == "Mine to keep")
        #expect(s.state.conflict?.theirs == "Theirs")
        await s.handle(.char("m"))
        #expect(await waitUntil { (try? s.context.object(with: id).value(forKey: "title")) == .string("Mine to keep") })
        #expect(s.state.editNotice == nil)
    }

    @Test func relationshipNavigationAndBack() async throws {
        let s = try await session("Product")
        await s.handle(.tab)
        #expect(s.state.focus == .detail)
        for _ in 0..<5 { await s.handle(.char("j")) }     // provider
        await s.handle(.enter)
        #expect(s.state.currentEntityName == "Provider")
        await s.handle(.backspace)
        #expect(s.state.currentEntityName == "Product")
        // To-many: the provider's products.
        await s.handle(.char(":")); await type(s, "goto Provider"); await s.handle(.enter)
        await s.handle(.tab); await s.handle(.char("j")); await s.handle(.char("j"))
        let provider = try #require(s.rows).object(at: 0)
        let expected = try provider.toMany("products").count
        await s.handle(.enter)
        #expect(s.state.currentEntityName == "Product")
        #expect(s.state.rowCount == expected)
        #expect(s.state.navigationTitle?.hasPrefix("products of") == true)
        // The list is live: a product given to this provider by another writer joins
        // it, one taken away leaves it.
        let providerID = provider.objectID
        try await s.container.enqueue { ctx in
            let p = try ctx.insert("Product", values: ["name": .string("Joined later")])
            try p.setToOne("provider", ctx.object(with: providerID))
        }
        #expect(await waitUntil { s.state.rowCount == expected + 1 })
        try await s.container.enqueue { ctx in
            let p = try #require(try ctx.fetch("Product", where: VellumStore.QueryPredicate(format: "name == 'Joined later'")).first)
            try p.setToOne("provider", nil)
        }
        #expect(await waitUntil { s.state.rowCount == expected })
        await s.handle(.backspace)
        #expect(s.state.currentEntityName == "Provider")
        #expect(s.state.rowCount == 10)
    }
}
