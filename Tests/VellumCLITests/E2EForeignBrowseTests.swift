import Foundation
import Testing

/// The browser on a copy of Chinook, a database Vellum did not create: follow
/// Track → Album → Artist, edit a track's name and read it with `sqlite3`; the
/// file keeps its rollback journal (no `-wal`/`-shm`) and the fixture is untouched.
@Suite("E2E browser on another program's database", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EForeignBrowseTests {
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
