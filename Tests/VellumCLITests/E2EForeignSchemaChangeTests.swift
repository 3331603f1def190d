import Foundation
import Testing

/// The browser on another program's database while the sqlite3 shell changes its
/// schema: the model is inferred again, the new table shows in the entity list,
/// the new column in the table, and the status line says what changed.
@Suite("E2E schema changes on another program's database", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EForeignSchemaChangeTests {
    @Test func aTableAndColumnAddedByTheShellAppearInTheBrowser() throws {
        let dir = TempDir()
        let path = dir.path("notes.sqlite")
        #expect(try runSQLite(path, """
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO note (body) VALUES ('first'), ('second');
            """).status == 0)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "note")
        defer { t.kill() }
        #expect(t.wait(for: "second"), "\(t.screen)")
        #expect(!t.screen.contains("zebra") && !t.screen.contains("mood"), "\(t.screen)")
        // One transaction: three separate commits can land while the browser reopens
        // after the first, and a change made in that window is not seen (known gap,
        // docs/foreign-databases.md) — this test is about one schema change.
        #expect(try sqliteShell(path, """
            BEGIN; ALTER TABLE note ADD COLUMN mood TEXT; UPDATE note SET mood = 'calm'; CREATE TABLE zebra (id INTEGER PRIMARY KEY, stripes INT); COMMIT;
            """) == 0)
        #expect(t.wait(for: "schema changed", 60), "\(t.screen)")
        #expect(t.wait(for: "zebra"), "the new table is not listed: \(t.screen)")
        t.keys(":"); t.type("goto note"); t.keys("Enter")
        #expect(t.wait(for: "calm"), "the new column is not shown: \(t.screen)")
        #expect(t.screen.contains("mood"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(SQLiteFixtures.sidecars(of: path).isEmpty)
    }
}
