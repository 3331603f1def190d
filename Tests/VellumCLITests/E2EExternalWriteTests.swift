import Foundation
import Testing

/// A store of posts, tags (many-to-many) and authors, written with the sqlite3 shell.
final class PostsStore {
    let dir = TempDir()
    let path: String

    static let model = """
        {"entities": [
          {"name": "Post", "attributes": [{"name": "title", "type": "string"}],
           "relationships": [{"name": "tags", "destination": "Tag", "inverse": "posts", "toMany": true},
                             {"name": "author", "destination": "Author", "inverse": "posts"}]},
          {"name": "Tag", "attributes": [{"name": "name", "type": "string"}],
           "relationships": [{"name": "posts", "destination": "Post", "inverse": "tags", "toMany": true}]},
          {"name": "Author", "attributes": [{"name": "name", "type": "string"}],
           "relationships": [{"name": "posts", "destination": "Post", "inverse": "author", "toMany": true}]}
        ]}
        """

    init() throws {
        path = dir.path("posts.vellum")
        let model = dir.path("posts.json")
        try Self.model.write(toFile: model, atomically: true, encoding: .utf8)
        let created = try VellumBinary.run(["create", path, "--model", model])
        #expect(created.status == 0, "\(created.stderr)")
        sql("""
            INSERT INTO Tag (_entity, name) VALUES ('Tag', 'swift'), ('Tag', 'sqlite');
            INSERT INTO Post (_entity, title) VALUES ('Post', 'Alpha');
            INSERT INTO Post (_entity, title, author) VALUES ('Post', 'Orphan', 999);
            """)
    }

    @discardableResult
    func sql(_ statement: String) -> String {
        (try? sqliteOutput(path, statement)) ?? "sqlite3 could not run"
    }

    var command: String { "'\(VellumBinary.url.path)' '\(path)'" }
}

/// Issue #11: writes by other programs that the browser must show or survive —
/// many-to-many rows (high item 12) and dangling to-one references (torture run).
@Suite("E2E: other programs' writes in the browser", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EExternalWriteTests {
    @Test func joinTableInsertFromSQLiteUpdatesTheDetailCountLive() throws {
        let store = try PostsStore()
        let t = Tmux.browser(store.command, entity: "Post")
        defer { t.kill() }
        // Sorted by title: Alpha is the first row, shown in the detail pane.
        #expect(t.wait(for: "[0 Tag]"), "\(t.screen)")
        store.sql("INSERT INTO Post_tags (source, target) SELECT p._pk, t._pk FROM Post p, Tag t WHERE p.title = 'Alpha'")
        #expect(t.wait(for: "[2 Tag]"), "the count follows the sqlite3 insert: \(t.screen)")
        store.sql("DELETE FROM Post_tags WHERE target = (SELECT _pk FROM Tag WHERE name = 'swift')")
        #expect(t.wait(for: "[1 Tag]"), "the count follows the sqlite3 delete: \(t.screen)")
    }

    @Test func danglingToOneShowsAsMissingAndItsObjectCanBeDeleted() throws {
        let store = try PostsStore()
        let t = Tmux.browser(store.command, entity: "Post")
        defer { t.kill() }
        t.keys("j")
        #expect(t.wait(for: "missing Author p999"), "the dangling author reads as missing: \(t.screen)")
        t.keys("d")
        #expect(t.wait(for: "Delete this record?"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "row 1/1"), "\(t.screen)")
        #expect(store.sql("SELECT title FROM Post") == "Alpha")
    }
}
