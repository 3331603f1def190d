import Foundation
import Testing
import VellumStore

/// `vellum model`, `query`, `insert`, `update` and `delete` on a copy of Chinook,
/// a database Vellum did not create: its inferred model, edits that `sqlite3`
/// reads, a mapping given back with `--model`, and nothing changed by reading.
@Suite(.serialized) struct ForeignCLITests {
    static let fixture = "chinook.sqlite"

    @Test func modelAndQueryReadWithoutChangingTheFile() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.fixture, into: dir)
        let model = try VellumBinary.run(["model", copy.path])
        #expect(model.status == 0, "\(model.stderr)")
        #expect(model.stdout.contains("11 entities") && model.stdout.contains("entity PlaylistTrack"), "\(model.stdout)")
        let query = try VellumBinary.run(["query", copy.path, "Track", "--where", "album.artist.Name == 'AC/DC' AND Milliseconds > 300000",
                                          "--sort", "Name", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        let expected = try sqliteRows(copy.path, """
            SELECT Track.Name FROM Track JOIN Album USING (AlbumId) JOIN Artist USING (ArtistId)
            WHERE Artist.Name = 'AC/DC' AND Milliseconds > 300000 ORDER BY Track.Name
            """)
        let names = query.stdout.split(whereSeparator: \.isNewline).dropFirst().map { String($0.split(separator: ",")[2]) }
        #expect(names == expected, "\(query.stdout)")
        #expect(try Data(contentsOf: copy) == original)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func insertUpdateDeleteAreWhatSQLiteReads() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.fixture, into: dir)
        let inserted = try VellumBinary.run(["insert", copy.path, "Genre", "Name=Chiptune"])
        #expect(inserted.status == 0, "\(inserted.stderr)")
        let key = try sqliteScalar(copy.path, "SELECT GenreId FROM Genre WHERE Name = 'Chiptune'")
        #expect(key == "26" && inserted.stdout.contains("/Genre/p26"), "\(inserted.stdout)")
        let updated = try VellumBinary.run(["update", copy.path, "Track", "--where", "TrackId == 3", "Name=Fast As A Shark (live)"])
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(try sqliteScalar(copy.path, "SELECT Name FROM Track WHERE TrackId = 3") == "Fast As A Shark (live)")
        let refused = try VellumBinary.run(["delete", copy.path, "Genre", "--where", "Name == 'Rock'"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("tracks"), "\(refused.stderr)")
        let deleted = try VellumBinary.run(["delete", copy.path, "Genre", "--where", "Name == 'Chiptune'"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Genre") == "25")
        #expect(try sqliteScalar(copy.path, "PRAGMA journal_mode") == "delete")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func aSavedModelIsAMappingAndOneThatDoesNotFitIsRefused() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.fixture, into: dir)
        let json = try VellumBinary.run(["model", copy.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        try json.stdout.write(toFile: dir.path("map.json"), atomically: true, encoding: .utf8)
        let query = try VellumBinary.run(["query", copy.path, "Artist", "--model", dir.path("map.json"), "--where", "ArtistId == 1", "--format", "csv"])
        #expect(query.status == 0 && query.stdout.contains("AC/DC"), "\(query.stderr)")
        // An attribute renamed without saying which column it stands for does not fit.
        try json.stdout.replacingOccurrences(of: "\"Composer\"", with: "\"Writer\"").write(toFile: dir.path("bad.json"), atomically: true, encoding: .utf8)
        let bad = try VellumBinary.run(["query", copy.path, "Track", "--model", dir.path("bad.json")])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("table 'Track' has no column 'Writer'"), "\(bad.stderr)")
        #expect(try Data(contentsOf: copy) == original)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    @Test func readOnlyOpeningsRefuseWritesAndLeaveNoFiles() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.fixture, into: dir)
        let asked = try VellumBinary.run(["query", copy.path, "Genre", "--read-only", "--limit", "1"])
        #expect(asked.status == 0 && asked.stdout.contains("Rock"), "\(asked.stderr)")
        // Another user's database in a folder everyone may write: opened read-only, saying so.
        chmod(dir.url.path, 0o1777)
        chown(copy.path, 1000, 1000)
        chmod(copy.path, 0o644)
        let reader = try VellumBinary.run(executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                                          ["--reuid=65534", "--regid=65534", "--clear-groups", VellumBinary.url.path, "query", copy.path, "Genre", "--limit", "1"])
        #expect(reader.status == 0 && reader.stdout.contains("Rock"), "\(reader.stderr)")
        #expect(reader.stderr.contains("read-only"), "\(reader.stderr)")
        let writer = try VellumBinary.run(executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                                          ["--reuid=65534", "--regid=65534", "--clear-groups", VellumBinary.url.path, "insert", copy.path, "Genre", "Name=Nope"])
        #expect(writer.status != 0)
        #expect(try Data(contentsOf: copy) == original)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    /// `vellum watch` on a copy of Chinook prints what another process (the sqlite3 shell)
    /// changed: untracked, as an unknown change (the file has no history); tracked, object by
    /// object with the changed column. Watching changes nothing in the file.
    @Test func watchPrintsAnotherProcesssChangeUntrackedAndTracked() async throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(Self.fixture, into: dir)
        /// Starts `vellum watch`, runs `sql` in the shell, and says whether a printed line contains `expected`.
        func watchPrints(_ expected: String, after sql: String) async throws -> Bool {
            let watch = try ChildProcess(["watch", copy.path])
            #expect(await watch.waitForStderr("vellum: watching", timeout: 30))
            #expect(try sqliteShell(copy.path, sql) == 0)
            let seen = await watch.waitForLines(timeout: 30) { $0.contains { $0.contains(expected) } }
            watch.signal(SIGTERM)
            #expect(await watch.waitForExit(timeout: 10))
            if !seen { Issue.record("not printed: \(expected): \(watch.lines) \(watch.stderr)") }
            return seen
        }
        #expect(try await watchPrints("unknown", after: "UPDATE Track SET Name = 'Changed' WHERE TrackId = 1"))
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty, "watching left files beside the database")
        #expect(try VellumBinary.run(["track", copy.path, "--yes"]).status == 0)
        #expect(try await watchPrints("/Track/p2  update  Composer", after: "UPDATE Track SET Composer = 'Someone' WHERE TrackId = 2"))
        #expect(SQLiteFixtures.originalUnchanged(Self.fixture, original))
    }

    /// A table without a primary key is listed, read-only with the reason (`vellum model`),
    /// and `insert`/`update`/`delete` refuse it naming that reason, writing nothing.
    @Test func aTableWithoutAPrimaryKeyIsReadOnlyInModelAndRefusedByWrites() throws {
        let dir = TempDir()
        let path = dir.path("log.sqlite")
        #expect(try sqliteShell(path, "CREATE TABLE log (at TEXT, line TEXT); INSERT INTO log VALUES ('now', 'hello');") == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let reason = "log has no primary key: its rows are known only by their rowid, which VACUUM may renumber, so they cannot be added, changed or deleted here"
        let model = try VellumBinary.run(["model", path])
        #expect(model.status == 0 && model.stdout.contains("entity log\n  parent: none\n  abstract: no\n  read-only: \(reason)"), "\(model.stdout)")
        let json = try VellumBinary.run(["model", path, "--json"])
        #expect(json.stdout.contains("sqlite.readOnly"), "\(json.stdout)")
        for write in [["insert", path, "log", "line=x"], ["update", path, "log", "--where", "line == 'hello'", "line=z"],
                      ["delete", path, "log", "--where", "line == 'hello'"]] {
            let r = try VellumBinary.run(write)
            #expect(r.status == 1 && r.stderr.contains(reason), "\(write[0]): \(r.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(SQLiteFixtures.sidecars(of: path).isEmpty)
    }
}
