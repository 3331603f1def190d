import Foundation
import Testing
import VellumStore

/// Issue 13: a foreign key to a text key is a to-one in `vellum model --json`, and the
/// saved model given back with `--model` still finds its column: a query across it reads
/// what `sqlite3` reads, and nothing in the file changes.
@Suite(.serialized) struct ForeignKeyReferenceCLITests {
    @Test func aToOneToATextKeySurvivesTheModelsJSON() throws {
        let dir = TempDir()
        let path = dir.path("places.sqlite")
        #expect(try sqliteShell(path, """
            CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT);
            CREATE TABLE city (id INTEGER PRIMARY KEY, name TEXT, country_code TEXT REFERENCES country (code) ON DELETE CASCADE);
            INSERT INTO country VALUES ('fr', 'France'), ('de', 'Germany');
            INSERT INTO city (name, country_code) VALUES ('Paris', 'fr'), ('Lyon', 'fr'), ('Berlin', 'de');
            """) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let json = try VellumBinary.run(["model", path, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(json.stdout.contains("sqlite.foreignKey.country_code"), "\(json.stdout)")
        try json.stdout.write(toFile: dir.path("map.json"), atomically: true, encoding: .utf8)
        for model in [[], ["--model", dir.path("map.json")]] {
            let query = try VellumBinary.run(["query", path, "city"] + model + ["--where", "country_code.name == 'France'", "--sort", "name", "--format", "csv"])
            #expect(query.status == 0, "\(query.stderr)")
            let names = query.stdout.split(whereSeparator: \.isNewline).dropFirst().compactMap { $0.split(separator: ",").first { $0 == "Lyon" || $0 == "Paris" } }
            #expect(names == ["Lyon", "Paris"], "\(query.stdout)")
            let countries = try VellumBinary.run(["query", path, "country"] + model + ["--where", "ANY cities.name == 'Berlin'", "--format", "csv"])
            #expect(countries.status == 0 && countries.stdout.contains("Germany") && !countries.stdout.contains("France"), "\(countries.stdout)\(countries.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(SQLiteFixtures.sidecars(of: path).isEmpty)
    }
}
