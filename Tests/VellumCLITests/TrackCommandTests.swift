import Foundation
import Testing
import VellumStore

/// `vellum track` / `vellum untrack` on a copy of Chinook: nothing without consent,
/// exactly the printed names added, and the schema as before after untrack.
@Suite(.serialized)
struct TrackCommandTests {
    static func schema(_ path: String) throws -> [String] {
        try sqliteRows(path, "SELECT type || '|' || name || '|' || tbl_name || '|' || coalesce(sql, '') FROM sqlite_master ORDER BY type, name")
    }

    /// `vellum ARGS` with `input` on its standard input.
    static func vellum(_ arguments: [String], input: String) throws -> VellumBinary.Output {
        let quoted = ([VellumBinary.url.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        return try VellumBinary.run(executable: URL(fileURLWithPath: "/bin/sh"), ["-c", "printf '\(input)' | " + quoted.joined(separator: " ")])
    }

    @Test func trackAsksThenAddsExactlyWhatItPrintedAndUntrackRemovesIt() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let path = copy.path
        let before = try Self.schema(path)
        let namesBefore = Set(try sqliteRows(path, "SELECT name FROM sqlite_master"))

        let declined = try Self.vellum(["track", path], input: "n\\n")
        #expect(declined.status == 1)
        #expect(declined.stderr.contains("not confirmed; nothing was changed"))
        #expect(try Self.schema(path) == before)

        let r = try Self.vellum(["track", path], input: "y\\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("[y/N]"))
        let printed = Set(r.stdout.split(whereSeparator: { " ,:\n".contains($0) }).map(String.init).filter { $0.hasPrefix("_vellum_") })
        #expect(printed.count == 36)  // 2 tables, 1 index, 3 triggers on each of 11 tables
        #expect(r.stdout.contains("on Artist (key ArtistId): _vellum_history_Artist_insert, _vellum_history_Artist_update, _vellum_history_Artist_delete"))
        #expect(r.stdout.contains("on PlaylistTrack (key PlaylistId, TrackId): _vellum_history_PlaylistTrack_insert,"), "\(r.stdout)")
        #expect(!r.stdout.contains("not tracked"), "\(r.stdout)")
        #expect(Set(try sqliteRows(path, "SELECT name FROM sqlite_master")).subtracting(namesBefore) == printed)
        #expect(try sqliteScalar(path, "PRAGMA journal_mode") == "delete")

        #expect(try sqliteShell(path, "UPDATE Track SET Name = 'Changed' WHERE TrackId = 1") == 0)
        #expect(try sqliteRows(path, "SELECT entity || ' ' || pk || ' ' || columns FROM _vellum_changes") == ["Track 1 Name"])

        let u = try VellumBinary.run(["untrack", path, "--yes"])
        #expect(u.status == 0, "\(u.stderr)")
        #expect(u.stdout.contains("removed 36 names"))
        #expect(try Self.schema(path) == before)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    /// `untrack` on a server store said "no such file", as if the URL were a path.
    @Test func untrackRefusesAPostgreSQLStoreSayingItsHistoryIsItsOwn() throws {
        let u = try VellumBinary.run(["untrack", "postgresql:///db?schema=shop", "--yes"])
        #expect(u.status == 1)
        #expect(u.stderr.contains("a PostgreSQL store records its own history") && u.stderr.contains("nothing was changed"), "\(u.stderr)")
    }

    @Test func trackNamesAKeyedTablesKeyAndRefusesAViewNamingIt() throws {
        let dir = TempDir()
        let path = dir.path("pairs.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE pairs (a TEXT, b TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID; CREATE VIEW v AS SELECT a FROM pairs") == 0)
        let before = try Self.schema(path)
        let r = try VellumBinary.run(["track", path, "v", "--yes"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("cannot track v: a view"), "\(r.stderr)")
        #expect(try Self.schema(path) == before)
        let keyed = try VellumBinary.run(["track", path, "pairs", "--yes"])
        #expect(keyed.status == 0, "\(keyed.stderr)")
        #expect(keyed.stdout.contains("on pairs (key a, b): _vellum_history_pairs_insert"), "\(keyed.stdout)")
        #expect(try sqliteShell(path, "INSERT INTO pairs VALUES ('x', 'y')") == 0)
        #expect(try sqliteRows(path, "SELECT pk FROM _vellum_changes") == ["('x','y')"])
        #expect(try VellumBinary.run(["untrack", path, "--yes"]).status == 0)
        #expect(try Self.schema(path) == before)
    }
}
