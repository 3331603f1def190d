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

    /// The table on screen dropped by the shell: the browser opens the file again, says so,
    /// and shows another table; a column dropped from the table shown leaves the table.
    @Test func aTableAndAColumnDroppedByTheShellLeaveTheBrowser() throws {
        let dir = TempDir()
        let path = dir.path("notes.sqlite")
        #expect(try runSQLite(path, """
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT, mood TEXT);
            INSERT INTO note (body, mood) VALUES ('first', 'calm'), ('second', 'wild');
            CREATE TABLE zebra (id INTEGER PRIMARY KEY, stripes INT);
            INSERT INTO zebra (stripes) VALUES (7);
            """).status == 0)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "zebra", width: 80, height: 24)
        defer { t.kill() }
        #expect(try sqliteShell(path, "DROP TABLE zebra") == 0)
        #expect(t.wait(for: "table zebra dropped", 60), "\(t.screen)")
        #expect(t.wait(for: "│ note │ row 1/2"), "\(t.screen)")
        #expect(!t.screen.contains("zebra  "), "\(t.screen)")
        #expect(try sqliteShell(path, "ALTER TABLE note DROP COLUMN mood") == 0)
        #expect(t.wait(for: "column note.mood dropped", 60), "\(t.screen)")
        #expect(t.wait { !$0.contains("calm") }, "\(t.screen)")
        #expect(t.screen.contains("second"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
    }

    /// Regression: a schema change while a field was being edited reopened the file at once,
    /// and the typed text was gone. The reopening now waits for the edit: the status says
    /// so, Enter saves the text (through the model it was typed in), then the file is opened
    /// again with the same table shown.
    @Test(arguments: [[80, 24], [120, 40]])
    func aSchemaChangeWaitsForTheEditInProgress(size: [Int]) throws {
        let dir = TempDir()
        let path = dir.path("notes.sqlite")
        #expect(try runSQLite(path, """
            CREATE TABLE alpha (id INTEGER PRIMARY KEY, label TEXT);
            CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT);
            INSERT INTO note (body) VALUES ('first'), ('second');
            """).status == 0)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "note", width: size[0], height: size[1])
        defer { t.kill() }
        t.keys("l", "Enter")
        #expect(t.wait(for: "Esc cancel"), "\(t.screen)")
        t.type("-kept")
        #expect(t.wait(for: "first-kept"), "\(t.screen)")
        #expect(try sqliteShell(path, "ALTER TABLE note ADD COLUMN mood TEXT") == 0)
        #expect(t.wait(for: "when this edit ends", 60), "\(t.screen)")
        #expect(t.screen.contains("first-kept"), "the typed text is still in the editor: \(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "schema changed: column note.mood added", 60), "\(t.screen)")
        #expect(t.wait(for: "mood"), "the new column shows: \(t.screen)")
        #expect(t.screen.contains("│ note │"), "the same table is shown: \(t.screen)")
        #expect(try sqliteRows(path, "SELECT body FROM note ORDER BY id") == ["first-kept", "second"])
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
    }
}
