import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: `D` duplicates a record with its to-one relationships and asks for new
/// values of its unique attributes; Esc or a refused save loses nothing and writes nothing.
@MainActor @Suite(.serialized) struct DuplicateRecordTests {
    let snapshots = SnapshotTests()


    @Test func theCopyKeepsItsToOneRelationshipsButNotItsToManyMembers() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Product")
        // A product with a provider and an image.
        let pk = try sqliteText(url, "SELECT p._pk FROM Product p WHERE p.provider IS NOT NULL AND EXISTS (SELECT 1 FROM Image i WHERE i.product = p._pk) ORDER BY p._pk LIMIT 1")
        try await snapshots.type(":id p\(pk)\r", into: s)
        try await snapshots.type("D", into: s)
        await s.writesSettled()
        let newest = try sqliteText(url, "SELECT max(_pk) FROM Product")
        #expect(newest != pk)
        #expect(try sqliteText(url, "SELECT name, price, stock, sku, provider FROM Product WHERE _pk = \(newest)")
                == sqliteText(url, "SELECT name, price, stock, sku, provider FROM Product WHERE _pk = \(pk)"))
        #expect(try sqliteText(url, "SELECT count(*) FROM Image WHERE product = \(newest)") == "0", "images stay with the original")
        #expect(try sqliteText(url, "SELECT count(*) FROM Image WHERE product = \(pk)") != "0")
        #expect(s.rows?.id(at: s.state.cursorRow)?.primaryKey.map(String.init) == newest, "the copy is selected")
    }

    @Test func aUniqueValueIsAskedForAndARefusedSaveReopensTheLineWithWhatWasTyped() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Provider")
        let count = try sqliteText(url, "SELECT count(*) FROM Provider")
        let original = try #require(try s.rows?.object(at: 0))
        let name = try #require(try original.value(forKey: "name").stringValue)
        try await snapshots.type("D", into: s)
        #expect(s.state.mode == .duplicate && s.state.editor.text == name)
        #expect(s.state.duplicatePrompt?.label == "copy's name (unique): ")
        // Esc: nothing written.
        await s.handle(.escape)
        #expect(s.state.mode == .browse && s.state.statusMessage == "duplicate cancelled; nothing written")
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == count)
        // The same name again: the save is refused by the uniqueness constraint and the line
        // opens again with the text and the reason.
        try await snapshots.type("D\r", into: s)
        #expect(await waitUntil { s.state.mode == .duplicate })
        #expect(s.state.promptError?.hasPrefix("not saved: ") == true, "\(s.state.promptError ?? "")")
        #expect(s.state.editor.text == name)
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == count)
        await s.handle(.ctrl("u"))
        try await snapshots.type("\(name) (copy)\r", into: s)
        await s.writesSettled()
        #expect(try sqliteText(url, "SELECT count(*) FROM Provider") == "\(Int(count)! + 1)")
        #expect(try sqliteText(url, "SELECT country FROM Provider WHERE name = '\(name) (copy)'")
                == sqliteText(url, "SELECT country FROM Provider WHERE name = '\(name)'"))
        #expect(s.state.mode == .browse)
    }
}
