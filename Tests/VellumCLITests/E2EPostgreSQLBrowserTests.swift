import Foundation
import Testing
import VellumStore

/// The browser over a PostgreSQL store (`vellum postgresql://…`): it shows the rows,
/// and other processes' commits (a `vellum insert`, plain SQL) appear live.
@Suite("E2E: the browser over PostgreSQL", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EPostgreSQLBrowserTests {
    @Test func browseAndSeeAnotherProcesssInsertAndAnSQLUpdateLive() throws {
        let dir = TempDir()
        let model = dir.path("posts.json")
        try PostsStore.model.write(toFile: model, atomically: true, encoding: .utf8)
        let url = try PostgreSQLCluster.shared().makeSchema("posts")
        #expect(try VellumBinary.run(["create", url, "--model", model]).status == 0)
        #expect(try VellumBinary.run(["insert", url, "Post", "title=Alpha"]).status == 0)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(url)'", entity: "Post")
        defer { t.kill() }
        #expect(t.wait(for: "Alpha"), "\(t.screen)")
        let insert = try VellumBinary.run(["insert", url, "Post", "title=Bravo"])
        #expect(insert.status == 0, "\(insert.stderr)")
        #expect(t.wait(for: "Bravo"), "another process's insert shows live: \(t.screen)")
        try PGConnection(url: url).execute(#"UPDATE "Post" SET "title" = 'Charlie' WHERE "title" = 'Alpha'"#)
        #expect(t.wait(for: "Charlie"), "an SQL update shows live: \(t.screen)")
    }
}
