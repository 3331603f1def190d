import Foundation
import Testing

/// The browser on a copy of Chinook (no Vellum history: changes are known only
/// coarsely) while the sqlite3 shell writes: the changed row updates in place and
/// flashes; its neighbours do not.
@Suite("E2E live updates on another program's database", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EForeignLiveTests {
    @Test func aShellUpdateShowsAndFlashesOnlyThatRow() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(copy.path)'", entity: "Artist")
        defer { t.kill() }
        // Sorted by Name: Accept and Aerosmith are on the first screen, below the cursor.
        #expect(t.wait(for: "Aerosmith"), "\(t.screen)")
        /// Whether the table row showing `name` is drawn in a style of its own (the flash):
        /// an escape sequence between the table's border and the name, other than the
        /// default-colour reset every row starts with.
        func styled(_ name: String) -> Bool? {
            let screen = t.tmux(["capture-pane", "-e", "-p", "-t", t.name]).out
            guard let line = screen.split(separator: "\n").first(where: { $0.contains(name) }),
                  let nameAt = line.range(of: name), let border = line[..<nameAt.lowerBound].range(of: "│", options: .backwards) else { return nil }
            return line[border.upperBound..<nameAt.lowerBound].replacingOccurrences(of: "\u{1b}[39m", with: "").contains("\u{1b}[")
        }
        #expect(styled("Accept") == false, "unchanged rows are drawn plainly")
        #expect(try sqliteShell(copy.path, "UPDATE Artist SET Name = 'Aerosmith (live)' WHERE Name = 'Aerosmith'") == 0)
        #expect(t.wait(for: "Aerosmith (live)"), "\(t.screen)")
        // It flashes in the theme's highlight role for about a second; the row above, unchanged, does not.
        #expect(styled("Aerosmith (live)") == true, "the changed row does not flash")
        #expect(styled("Accept") == false, "an unchanged row flashes")
        #expect(t.wait(10) { _ in styled("Aerosmith (live)") == false }, "the flash never ended")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// A sqlite3-shell insert appears live untracked (refetch and diff); `:track` in the
    /// browser asks naming what it adds and installs it only on `y`, after which the next
    /// insert arrives through history; an edit of a track the shell renames meanwhile asks
    /// mine/theirs, and "mine" is what the file then holds.
    @Test func shellInsertsAppearUntrackedAndTrackedFromTheBrowserAndAConflictingEditAsks() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(copy.path)'", entity: "Artist")
        defer { t.kill() }
        t.keys("/"); t.type("ArtistId > 275"); t.keys("Enter")
        #expect(t.wait(for: "│ Artist │ no rows") || t.wait(for: "ArtistId > 275"), "\(t.screen)")
        #expect(try sqliteShell(copy.path, "INSERT INTO Artist (Name) VALUES ('Live One')") == 0)
        #expect(t.wait(for: "Live One"), "untracked: the shell's insert did not appear: \(t.screen)")

        // :track asks, naming the tables, index and triggers; n changes nothing, y installs.
        t.keys(":"); t.type("track"); t.keys("Enter")
        #expect(t.wait(for: "Add these 36 names to chinook.sqlite?"), "\(t.screen)")
        #expect(t.screen.contains("_vellum_history_T_insert") && t.screen.contains("PlaylistTrack"), "\(t.screen)")
        t.keys("n")
        #expect(t.wait(for: "left unchanged"), "\(t.screen)")
        #expect(try HistoryTrackingShell.tracked(copy.path).isEmpty)
        t.keys(":"); t.type("track"); t.keys("Enter")
        #expect(t.wait(for: "Add these 36 names"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "tracking 11 tables of chinook.sqlite"), "\(t.screen)")
        #expect(try HistoryTrackingShell.tracked(copy.path).count == 11)
        #expect(t.screen.contains("│ Artist │"), "reopened on the same entity: \(t.screen)")
        t.keys("/"); t.type("ArtistId > 275"); t.keys("Enter")
        #expect(t.wait(for: "Live One"), "\(t.screen)")
        #expect(try sqliteShell(copy.path, "INSERT INTO Artist (Name) VALUES ('Live Two')") == 0)
        #expect(t.wait(for: "Live Two"), "tracked: the shell's insert did not appear: \(t.screen)")
        #expect(try sqliteOutput(copy.path, "SELECT count(*) FROM _vellum_changes WHERE entity = 'Artist' AND kind = 0") == "1")

        // Edit a track's name while the shell renames that track: the save asks mine/theirs.
        t.keys(":"); t.type("goto Track"); t.keys("Enter")
        #expect(t.wait(for: "│ Track │ row 1/3503"), "\(t.screen)")
        t.keys("l", "e", "C-u"); t.type("Mine")
        // The shell writes only once the editor is open with the typed name: under load the
        // keys may be taken after the shell's commit, and the editor would then start from theirs.
        #expect(t.wait { $0.contains("Enter save") && $0.contains("Mine") }, "\(t.screen)")
        #expect(try sqliteShell(copy.path, "UPDATE Track SET Name = 'Theirs' WHERE TrackId = 1") == 0)
        t.keys("Enter")
        #expect(t.wait(for: "keep mine"), "no conflict prompt: \(t.screen)")
        #expect(t.screen.contains("Theirs"), "\(t.screen)")
        t.keys("m")
        #expect(t.wait(20) { _ in (try? sqliteOutput(copy.path, "SELECT Name FROM Track WHERE TrackId = 1")) == "Mine" }, "\(t.screen)")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// The browser refuses to open the editor (or add, or delete) on a view, saying why.
    @Test func theBrowserRefusesToEditAViewSayingWhy() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        #expect(try sqliteShell(copy.path, "CREATE VIEW LongTrack AS SELECT TrackId, Name FROM Track WHERE Milliseconds > 1000000") == 0)
        let before = try Data(contentsOf: copy)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(copy.path)'", entity: "LongTrack")
        defer { t.kill() }
        for key in ["e", "a", "d", "D"] {
            t.keys(key)
            #expect(t.wait(for: "LongTrack is a view: its rows cannot be added, changed or deleted here"), "\(key): \(t.screen)")
            #expect(!t.screen.contains("Delete this record") && !t.screen.contains("empty = null"), "\(t.screen)")
            // An error stays until the next key: a move clears it (Esc then a letter would be Alt-letter).
            t.keys("k")
            #expect(t.wait(10) { !$0.contains("LongTrack is a view") }, "\(t.screen)")
        }
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(try Data(contentsOf: copy) == before)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }
}

/// What the sqlite3 shell says of a file's tracking (the tables with history triggers).
enum HistoryTrackingShell {
    static func tracked(_ path: String) throws -> [String] {
        try sqliteRows(path, "SELECT DISTINCT tbl_name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '\\_vellum\\_history\\_%' ESCAPE '\\'")
    }
}
