import Foundation
import Testing
import VellumStore

/// `--no-foreign-keys` on Chinook (a copy): `vellum delete` of a genre that tracks refer
/// to is refused as usual, and done with the flag, leaving the tracks' references as
/// they were (what the sqlite3 shell does with foreign keys off, its default); `vellum
/// model --no-foreign-keys` says no to-many's delete rule runs.
@Suite struct NoForeignKeysCommandTests {
    @Test func deleteWithoutForeignKeysLeavesTheReferencesAsSQLiteDoes() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy(ForeignCLITests.fixture, into: dir)
        let tracks = try sqliteScalar(copy.path, "SELECT count(*) FROM Track WHERE GenreId = 1")
        let refused = try VellumBinary.run(["delete", copy.path, "Genre", "--where", "Name == 'Rock'"])
        #expect(refused.status != 0 && refused.stderr.contains("tracks"), "\(refused.stderr)")
        let deleted = try VellumBinary.run(["delete", copy.path, "Genre", "--where", "Name == 'Rock'", "--no-foreign-keys"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout == "deleted 1 object\n")
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Genre WHERE GenreId = 1") == "0")
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Track WHERE GenreId = 1") == tracks, "the tracks keep their reference")
        // A track in playlists: its join rows stay too (the many-to-many runs no rule either).
        let memberships = try sqliteScalar(copy.path, "SELECT count(*) FROM PlaylistTrack WHERE TrackId = 1")
        let track = try VellumBinary.run(["delete", copy.path, "Track", "--where", "TrackId == 1", "--no-foreign-keys"])
        #expect(track.status == 0, "\(track.stderr)")
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM Track WHERE TrackId = 1") == "0")
        #expect(try sqliteScalar(copy.path, "SELECT count(*) FROM PlaylistTrack WHERE TrackId = 1") == memberships)
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged(ForeignCLITests.fixture, original))
    }

    @Test func modelWithoutForeignKeysInfersNoDeleteRules() throws {
        let dir = TempDir()
        let (copy, _) = try SQLiteFixtures.copy(ForeignCLITests.fixture, into: dir)
        let enforced = try VellumBinary.run(["model", copy.path, "--json"])
        let off = try VellumBinary.run(["model", copy.path, "--json", "--no-foreign-keys"])
        #expect(enforced.status == 0 && off.status == 0, "\(enforced.stderr)\(off.stderr)")
        let rules = { (json: String) throws -> Set<String> in
            let model = try ManagedObjectModel.fromJSON(Data(json.utf8))
            return Set(model.entityDescriptions.flatMap { $0.relationships.filter(\.isToMany).map { "\($0.deleteRule)" } })
        }
        #expect(try rules(enforced.stdout).contains("deny"))
        #expect(try rules(off.stdout) == ["noAction"])
        let help = try VellumBinary.run(["delete", "--help"])
        #expect(help.stdout.contains("--no-foreign-keys"))
    }
}
