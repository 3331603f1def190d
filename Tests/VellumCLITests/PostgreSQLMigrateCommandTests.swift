import Foundation
import Testing
import VellumStore

/// `vellum migrate postgresql://…` plans, refuses and migrates a server store as it
/// does a file (it used to read the URL as a file path and fail).
@Suite struct PostgreSQLMigrateCommandTests {
    @Test func migrateTakesAServerURL() throws {
        let dir = TempDir()
        let url = try PostgreSQLCluster.shared().makeSchema("mig")
        let old = try CLIFixtures.shopModel()
        let oldPath = dir.path("old.json"), newPath = dir.path("new.json"), badPath = dir.path("bad.json")
        try old.jsonData().write(to: URL(fileURLWithPath: oldPath))
        var added = old.entityDescriptions
        let product = try #require(added.firstIndex { $0.name == "Product" })
        added[product].attributes.append(AttributeDescription(name: "shelf", type: .integer64, isOptional: false, defaultValue: .integer(5)))
        try ManagedObjectModel(entities: added).jsonData().write(to: URL(fileURLWithPath: newPath))
        var blocked = old.entityDescriptions
        blocked[product].attributes.append(AttributeDescription(name: "barcode", type: .string, isOptional: false))
        try ManagedObjectModel(entities: blocked).jsonData().write(to: URL(fileURLWithPath: badPath))
        #expect(try VellumBinary.run(["create", url, "--model", oldPath]).status == 0)
        #expect(try VellumBinary.run(["insert", url, "Product", "name=fig", "price=2"]).status == 0)

        let refused = try VellumBinary.run(["migrate", url, "--model", badPath])
        #expect(refused.status == 1 && refused.stdout.contains("Product: barcode is new, required and has no default: 1 row does not comply"), "\(refused.stdout)\(refused.stderr)")

        let dry = try VellumBinary.run(["migrate", url, "--model", newPath, "--dry-run"])
        #expect(dry.status == 0 && dry.stdout.contains("attribute shelf added") && dry.stdout.contains("Dry run: the store was not changed."), "\(dry.stdout)\(dry.stderr)")
        let hash = try PGConnection(url: url).rows("SELECT value FROM _vellum_metadata WHERE key = 'modelHash'")
        #expect(hash == [[.string(old.versionHash)]])

        let done = try VellumBinary.run(["migrate", url, "--model", newPath])
        #expect(done.status == 0 && done.stdout.contains("Backup: mig_before_\(old.versionHash.prefix(12))"), "\(done.stdout)\(done.stderr)")
        let rows = try PGConnection(url: url).rows(#"SELECT "name" || ':' || "shelf"::text FROM "Product""#)
        #expect(rows == [[.string("fig:5")]])
    }
}
