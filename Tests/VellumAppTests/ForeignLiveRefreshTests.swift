import Foundation
import Testing
@testable import VellumApp
import VellumStore

/// A browser on another program's database (no history: changes are known only
/// coarsely) while the sqlite3 shell writes: the list is not reloaded on the main
/// thread; the controller's own refetch-and-diff updates it, and only the changed
/// row flashes.
@MainActor @Suite(.serialized) struct ForeignLiveRefreshTests {
    static func foreignSession(rows: Int, in dir: TempDir) throws -> (BrowserSession, path: String) {
        let path = dir.file("plain.sqlite").path
        let inserts = (1...rows).map { "INSERT INTO item (name, qty) VALUES ('item \(String(format: "%03d", $0))', \($0));" }.joined(separator: "\n")
        _ = try runSQLite(path, "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, qty INTEGER);\nBEGIN;\n\(inserts)\nCOMMIT;")
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(store.detectsChangesCoarsely)
        return (BrowserSession(container: try PersistentContainer(store: store)), path)
    }

    @Test func aShellUpdateFlashesOnlyThatRowWithoutReloadingTheList() async throws {
        let dir = TempDir()
        let (s, path) = try Self.foreignSession(rows: 50, in: dir)
        #expect(s.state.currentEntityName == "item")
        let source = try #require(s.rows as? ResultsRowSource)
        let controller = source.controller
        let row = try #require(source.index(of: source.rowIDs.first { id in
            (try? s.context.object(with: id).value(forKey: "name")) == .string("item 003")
        }!))
        let id = try #require(source.id(at: row))
        _ = try source.object(at: row)   // on screen: loaded in the view context
        #expect(try sqliteShell(path, "UPDATE item SET qty = 999 WHERE name = 'item 003'") == 0)
        #expect(await waitUntil(timeout: 30) { s.state.flashes[id] != nil }, "the changed row never flashed")
        #expect(try source.object(at: try #require(source.index(of: id))).value(forKey: "qty") == .integer(999))
        #expect(Set(s.state.flashes.keys) == [id], "only the changed row flashes")
        #expect(source.controller === controller, "the list was reloaded instead of diffed")
    }

    @Test func aShellInsertAppearsAndFlashesAndADeleteDisappears() async throws {
        let dir = TempDir()
        let (s, path) = try Self.foreignSession(rows: 20, in: dir)
        let source = try #require(s.rows as? ResultsRowSource)
        let controller = source.controller
        #expect(try sqliteShell(path, "INSERT INTO item (name, qty) VALUES ('item 000 new', 0)") == 0)
        #expect(await waitUntil(timeout: 30) { s.state.rowCount == 21 }, "the inserted row never appeared")
        let added = try #require(source.rowIDs.first { (try? s.context.object(with: $0).value(forKey: "name")) == .string("item 000 new") })
        #expect(await waitUntil(timeout: 30) { s.state.flashes[added] != nil }, "the inserted row did not flash")
        #expect(try sqliteShell(path, "DELETE FROM item WHERE name = 'item 010'") == 0)
        #expect(await waitUntil(timeout: 30) { s.state.rowCount == 20 }, "the deleted row is still listed")
        #expect(source.controller === controller, "the list was reloaded instead of diffed")
    }
}
