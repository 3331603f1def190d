import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue #11 items 6, 7 and 9 on a BrowserSession: keys act on the record shown,
/// the picker sets what is highlighted, and a query that does not fit is not applied.
@MainActor @Suite(.serialized) struct SessionSafetyTests {
    func session(_ entity: String) async throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()))
        await session.handle(.char(":"))
        await type(session, "goto \(entity)")
        await session.handle(.enter)
        #expect(session.state.currentEntityName == entity)
        return session
    }

    func type(_ s: BrowserSession, _ text: String) async { for c in text { await s.handle(.char(c)) } }

    func shownID(_ s: BrowserSession) throws -> ObjectID { try #require(s.rows).object(at: s.state.cursorRow).objectID }

    @Test func localEditThatMovesARowKeepsTheSelectionOnTheRecord() async throws {
        let s = try await session("Product")
        await s.handle(.char("l")); await s.handle(.char("s"))       // by price, ascending
        #expect(s.state.sort == VellumStore.QuerySortDescriptor("price"))
        let edited = try shownID(s)
        let next = try #require(s.rows?.id(at: 1))
        await s.handle(.char("e")); await s.handle(.ctrl("u")); await type(s, "999"); await s.handle(.enter)
        #expect(s.state.mode == .browse)
        #expect(s.state.cursorRow == s.state.rowCount - 1)
        #expect(try shownID(s) == edited)
        await s.handle(.char("d")); await s.handle(.char("y"))
        #expect(s.context.registeredObject(for: edited)?.isDeleted ?? true)
        #expect(try s.context.count(FetchRequest(entityName: "Product", predicate: VellumStore.QueryPredicate(format: "price == 999"))) == 0)
        #expect(s.rows?.index(of: next) != nil)
        #expect(s.state.rowCount == 199)
    }

    @Test func pickerSearchThenEnterSetsTheFirstMatch() async throws {
        let s = try await session("Product")
        let product = try shownID(s)
        func provider() throws -> Value {
            let o = try s.context.existingObject(with: product)
            return try o.toOne("provider").map { try $0.value(forKey: "name") } ?? .null
        }
        await s.handle(.tab)
        for _ in 0..<5 { await s.handle(.char("j")) }
        await s.handle(.char("e"))
        #expect(s.state.mode == .picker)
        await type(s, "kyoto")
        #expect(s.state.pickerItems[s.state.pickerCursor] == "Kyoto Crafts")
        await s.handle(.enter)
        #expect(s.state.statusMessage == "provider = Kyoto Crafts")
        #expect(try provider() == .string("Kyoto Crafts"))
        // Nothing matches: Enter sets nothing.
        await s.handle(.char("e")); await type(s, "zzz"); await s.handle(.enter)
        #expect(s.state.mode == .picker && s.state.statusIsError)
        #expect(try provider() == .string("Kyoto Crafts"))
        // ∅ only when chosen.
        await s.handle(.ctrl("u"))
        #expect(s.state.pickerCursor == 1)
        await s.handle(.up); await s.handle(.enter)
        #expect(s.state.statusMessage == "provider cleared")
        #expect(try provider() == .null)
    }

    @Test func failedFilterOrSortIsNotAppliedAndKeepsThePrompt() async throws {
        let s = try await session("Task")
        await s.handle(.char("/")); await type(s, "title CONTAINS 3"); await s.handle(.enter)
        #expect(s.state.mode == .filter)
        #expect(s.state.promptError?.contains("CONTAINS needs strings") == true)
        #expect(s.state.filterText == "" && s.state.rowCount == 30)
        await s.handle(.char("x"))
        #expect(s.state.promptError == nil && s.state.mode == .filter)
        await s.handle(.ctrl("u")); await type(s, "priority > 4"); await s.handle(.enter)
        #expect(s.state.mode == .browse && s.state.filterText == "priority > 4" && s.state.rowCount == 6)
        // The command line too stays open with the reason, and nothing changes.
        await s.handle(.char(":")); await type(s, "filter nokey == 1"); await s.handle(.enter)
        #expect(s.state.mode == .command && s.state.promptError?.contains("no property 'nokey'") == true)
        #expect(s.state.filterText == "priority > 4" && s.state.rowCount == 6)
        await s.handle(.ctrl("u")); await type(s, "sort nokey"); await s.handle(.enter)
        #expect(s.state.mode == .command && s.state.sort == nil)
        #expect(s.state.promptError == "sort: Task has no property 'nokey'")
        await s.handle(.ctrl("u")); await type(s, "sort priority desc"); await s.handle(.enter)
        #expect(s.state.mode == .browse && s.state.promptError == nil)
        #expect(s.state.sort == VellumStore.QuerySortDescriptor("priority", ascending: false))
        // A command the reducer refuses keeps the line open too.
        await s.handle(.char(":")); await type(s, "goto Nowhere"); await s.handle(.enter)
        #expect(s.state.mode == .command && s.state.promptError == "no entity named 'Nowhere'")
        await s.handle(.escape)
        #expect(s.state.mode == .browse && s.state.promptError == nil && s.state.currentEntityName == "Task")
    }
}
