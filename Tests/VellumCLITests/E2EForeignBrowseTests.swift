import Foundation
import Testing

/// The browser on a copy of Chinook, a database Vellum did not create: follow
/// Track → Album → Artist, edit a track's name and read it with `sqlite3`; the
/// file keeps its rollback journal (no `-wal`/`-shm`) and the fixture is untouched.
@Suite("E2E browser on another program's database", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EForeignBrowseTests {
    /// `vellum FILE --model map.json` on another program's database reads it through the
    /// mapping, as `vellum query --model` does (it used to be taken for a migration and
    /// refused: "a SQLite database, but not a Vellum store"); one that does not fit is refused.
    @Test func aSavedMappingOpensTheBrowserAndOneThatDoesNotFitIsRefused() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let json = try VellumBinary.run(["model", copy.path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        try json.stdout.write(toFile: dir.path("map.json"), atomically: true, encoding: .utf8)
        try json.stdout.replacingOccurrences(of: "\"Composer\"", with: "\"Writer\"").write(toFile: dir.path("bad.json"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: copy)
        let t = Tmux("'\(VellumBinary.url.path)' '\(copy.path)' --model '\(dir.path("map.json"))'; echo \"exit=$?\"; sleep 600", width: 80, height: 24)
        defer { t.kill() }
        #expect(t.wait(for: "Track   3503"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(for: "exit=0"), "\(t.screen)")
        let bad = Tmux("'\(VellumBinary.url.path)' '\(copy.path)' --model '\(dir.path("bad.json"))'; echo \"exit=$?\"; sleep 600", width: 80, height: 24)
        defer { bad.kill() }
        #expect(bad.wait(for: "exit=1"), "\(bad.screen)")
        // The message wraps at 80 columns: read it as one line.
        #expect(bad.screen.replacingOccurrences(of: "\n", with: "").contains("column 'Writer' (attribute Writer)"), "\(bad.screen)")
        #expect(try Data(contentsOf: copy) == before)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    @Test func followTrackToAlbumToArtistThenEditATrackName() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(copy.path)'", entity: "Track")
        defer { t.kill() }
        // Detail fields: TrackId Name Composer Milliseconds Bytes UnitPrice, then the relationships.
        t.keys("Tab")
        #expect(t.wait(for: "follow/edit"), "\(t.screen)")
        let fields = t.screen.split(separator: "\n").compactMap { line -> String? in
            guard let bar = line.lastIndex(of: "│") else { return nil }
            return line[line.index(after: bar)...].split(separator: " ").first.map(String.init)
        }
        let album = try #require(fields.firstIndex(of: "album")) - (try #require(fields.firstIndex(of: "TrackId")))
        for _ in 0..<album { t.keys("j") }
        t.keys("Enter")
        #expect(t.wait(for: "│ Album │ row"), "\(t.screen)")
        #expect(t.screen.contains("album of"), "\(t.screen)")
        t.keys("Tab", "j", "j", "Enter")  // AlbumId Title artist
        #expect(t.wait(for: "│ Artist │ row"), "\(t.screen)")
        #expect(t.screen.contains("AC/DC"), "\(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "│ Album │ row"), "\(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "│ Track │ row 1/3503"), "\(t.screen)")
        t.keys("l", "e", "C-u"); t.type("Rock Salute (edited)"); t.keys("Enter")
        #expect(t.wait(for: "saved Name"), "\(t.screen)")
        #expect(try sqliteOutput(copy.path, "SELECT Name FROM Track WHERE TrackId = 1") == "Rock Salute (edited)")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }
}
