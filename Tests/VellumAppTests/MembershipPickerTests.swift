import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: to-many membership is edited with a multi-select picker — search, toggle,
/// count — and saved as one change (one write, one undo step); Esc writes nothing; a
/// member another writer added meanwhile is kept.
@MainActor @Suite(.serialized) struct MembershipPickerTests {
    let snapshots = SnapshotTests()

    static let provider = "Kyoto Crafts"

    func providerPK(_ url: URL) throws -> String { try sqliteText(url, "SELECT _pk FROM Provider WHERE name = '\(Self.provider)'") }

    /// The picker open on the provider's products, from its `products` column.
    func openPicker(_ url: URL) async throws -> BrowserSession {
        let s = try await snapshots.session(url, entity: "Provider")
        try await snapshots.type(":id p\(try providerPK(url))\r$e", into: s)
        return s
    }

    @Test func eOnAToManyOpensThePickerWithTheMembersChosenAndEnterSavesTheChangesAsOneUndoStep() async throws {
        let url = try SessionTests.makeStore()
        let pk = try providerPK(url)
        let members = try sqliteText(url, "SELECT count(*) FROM Product WHERE provider = \(pk)")
        let s = try await openPicker(url)
        #expect(s.state.mode == .picker && s.state.picker.isMembership)
        #expect(s.state.picker.tally == "\(members) chosen")
        #expect(s.state.pickerTitle.hasPrefix("products of \(Self.provider) → Product"))
        // A product of another provider, found by search and chosen; a member unchosen.
        let outsider = try sqliteText(url, "SELECT name FROM Product WHERE provider <> \(pk) ORDER BY name LIMIT 1")
        let member = try sqliteText(url, "SELECT name FROM Product WHERE provider = \(pk) ORDER BY name LIMIT 1")
        try await snapshots.type(outsider, into: s)
        #expect(s.state.pickerItems.first == outsider)
        await s.handle(.tab)
        await s.handle(.ctrl("u"))
        try await snapshots.type(member, into: s)
        await s.handle(.tab)
        #expect(s.state.picker.tally == "\(members) chosen (+1 −1)")
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Product WHERE provider = \(pk)") == members, "nothing is written before Enter")
        await s.handle(.enter)
        await s.writesSettled()
        #expect(await waitUntil { s.state.statusMessage == "products: added 1, removed 1" }, "\(s.state.statusMessage ?? "")")
        #expect(try sqliteText(url, "SELECT count(*) FROM Product WHERE name = '\(outsider)' AND provider = \(pk)") != "0")
        #expect(try sqliteText(url, "SELECT count(*) FROM Product WHERE name = '\(member)' AND provider IS NULL") != "0")
        // One undo step takes back both.
        await s.handle(.char("u"))
        await s.writesSettled()
        #expect(await waitUntil { (try? sqliteText(url, "SELECT count(*) FROM Product WHERE name = '\(member)' AND provider = \(pk)")) != "0" })
        #expect(try sqliteText(url, "SELECT count(*) FROM Product WHERE provider = \(pk)") == members)
    }

    @Test func escWritesNothing() async throws {
        let url = try SessionTests.makeStore()
        let before = try sqliteText(url, "SELECT group_concat(provider) FROM Product")
        let s = try await openPicker(url)
        await s.handle(.tab)
        await s.handle(.tab)
        await s.handle(.escape)
        #expect(s.state.mode == .browse)
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT group_concat(provider) FROM Product") == before)
    }

    @Test func aMemberAnotherWriterAddedMeanwhileIsKept() async throws {
        let url = try SessionTests.makeStore()
        let pk = try providerPK(url)
        let s = try await openPicker(url)
        let members = try sqliteText(url, "SELECT count(*) FROM Product WHERE provider = \(pk)")
        // Another program moves a product to this provider while the picker is open.
        let moved = try sqliteText(url, "SELECT _pk FROM Product WHERE provider <> \(pk) ORDER BY _pk DESC LIMIT 1")
        _ = try sqliteText(url, "UPDATE Product SET provider = \(pk), _version = _version + 1 WHERE _pk = \(moved)")
        // The user unchooses the first member listed, and saves.
        let chosen = try #require(s.state.picker.chosen)
        let first = try #require(s.state.picker.shown.first { $0.map(chosen.contains) == true } ?? nil)
        while s.state.picker.shown[s.state.pickerCursor] != first { await s.handle(.up) }
        await s.handle(.tab)
        await s.handle(.enter)
        await s.writesSettled()
        #expect(await waitUntil { s.state.statusMessage == "products: removed 1" }, "\(s.state.statusMessage ?? "")")
        #expect(try sqliteText(url, "SELECT provider FROM Product WHERE _pk = \(moved)") == pk, "their new member stays")
        #expect(try sqliteText(url, "SELECT count(*) FROM Product WHERE provider = \(pk)") == members)
    }
}
