import Foundation
import Testing
import VellumStore

/// The browser over a PostgreSQL store (`vellum postgresql://…`): it shows the rows,
/// and other processes' commits (a `vellum insert`, plain SQL) appear live.
@Suite("E2E: the browser over PostgreSQL", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EPostgreSQLBrowserTests {
    /// A posts store in a new schema holding one post, "Alpha", and the browser showing it.
    func browserOnAPostsStore(_ schema: String) throws -> (url: String, tmux: Tmux) {
        let dir = TempDir()
        let model = dir.path("posts.json")
        try PostsStore.model.write(toFile: model, atomically: true, encoding: .utf8)
        let url = try PostgreSQLCluster.shared().makeSchema(schema)
        #expect(try VellumBinary.run(["create", url, "--model", model]).status == 0)
        #expect(try VellumBinary.run(["insert", url, "Post", "title=Alpha"]).status == 0)
        return (url, Tmux.browser("'\(VellumBinary.url.path)' '\(url)'", entity: "Post"))
    }

    @Test func browseAndSeeAnotherProcesssInsertAndAnSQLUpdateLive() throws {
        let (url, t) = try browserOnAPostsStore("posts")
        defer { t.kill() }
        #expect(t.wait(for: "Alpha"), "\(t.screen)")
        let insert = try VellumBinary.run(["insert", url, "Post", "title=Bravo"])
        #expect(insert.status == 0, "\(insert.stderr)")
        #expect(t.wait(for: "Bravo"), "another process's insert shows live: \(t.screen)")
        try PGConnection(url: url).execute(#"UPDATE "Post" SET "title" = 'Charlie' WHERE "title" = 'Alpha'"#)
        #expect(t.wait(for: "Charlie"), "an SQL update shows live: \(t.screen)")
    }

    /// `vellum URL --model NEW` shows the server store's plan and asks, as for a file; `y`
    /// migrates it on the server and opens (the URL used to be read as a file path).
    @Test func aModelGivenForAServerStoreIsPlannedAskedAndMigrated() throws {
        let dir = TempDir()
        let url = try PostgreSQLCluster.shared().makeSchema("prompt")
        let old = try CLIFixtures.shopModel()
        let oldPath = dir.path("old.json"), newPath = dir.path("new.json")
        try old.jsonData().write(to: URL(fileURLWithPath: oldPath))
        var added = old.entityDescriptions
        let product = try #require(added.firstIndex { $0.name == "Product" })
        added[product].attributes.append(AttributeDescription(name: "shelf", type: .integer64, isOptional: false, defaultValue: .integer(5)))
        try ManagedObjectModel(entities: added).jsonData().write(to: URL(fileURLWithPath: newPath))
        #expect(try VellumBinary.run(["create", url, "--model", oldPath]).status == 0)
        #expect(try VellumBinary.run(["insert", url, "Product", "name=fig", "price=2"]).status == 0)
        let t = Tmux("'\(VellumBinary.url.path)' '\(url)' --model '\(newPath)'; echo \"exit=$?\"; sleep 600", width: 80, height: 24)
        defer { t.kill() }
        #expect(t.wait(for: "y: migrate (a backup is kept)"), "\(t.screen)")
        #expect(t.screen.contains("attribute shelf added"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(for: "exit=0"), "\(t.screen)")
        let rows = try PGConnection(url: url).rows(#"SELECT "name" || ':' || "shelf"::text FROM "Product""#)
        #expect(rows == [[.string("fig:5")]])
    }

    /// Issue #18: an edit made in the browser goes to the server (another session sees it).
    @Test func anEditInTheBrowserIsSeenByAnotherSession() throws {
        let (url, t) = try browserOnAPostsStore("edit")
        defer { t.kill() }
        #expect(t.wait(for: "Alpha"), "\(t.screen)")
        t.keys("e", "C-u"); t.type("Delta"); t.keys("Enter")
        #expect(t.wait(for: "saved title"), "\(t.screen)")
        let titles = try PGConnection(url: url).rows(#"SELECT "title" FROM "Post""#, format: .text).map { $0.first?.stringValue }
        #expect(titles == ["Delta"], "\(titles)")
    }
}
