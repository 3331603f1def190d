import Foundation
import Testing
import VellumStore

/// The CLI's commands take a `postgresql://` URL where they take a store file.
@Suite struct PostgreSQLCLITests {
    @Test func createInsertQueryUpdateDeleteOverAURL() throws {
        let dir = TempDir()
        let model = dir.path("shop.json")
        try CLIFixtures.shopModel().jsonData().write(to: URL(fileURLWithPath: model))
        let url = try PostgreSQLCluster.shared().makeSchema("cli")
        let created = try VellumBinary.run(["create", url, "--model", model])
        #expect(created.status == 0 && created.stdout.hasPrefix("created \(url):"), "\(created.stderr)")
        let again = try VellumBinary.run(["create", url, "--model", model])
        #expect(again.status != 0 && again.stderr.contains("already exists"), "\(again.stderr)")

        let acme = try VellumBinary.run(["insert", url, "Provider", "name=Acme"])
        #expect(acme.status == 0, "\(acme.stderr)")
        let acmeID = acme.stdout.trimmingCharacters(in: .newlines)
        for (name, price) in [("fig", "2.5"), ("kiwi", "1")] {
            let r = try VellumBinary.run(["insert", url, "Product", "name=\(name)", "price=\(price)", "provider=\(acmeID)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        let q = try VellumBinary.run(["query", url, "Product", "--where", "provider.name == 'Acme'", "--sort", "price", "--format", "csv"])
        #expect(q.status == 0, "\(q.stderr)")
        #expect(q.stdout.contains("kiwi") && q.stdout.contains("fig"), "\(q.stdout)")
        #expect(q.stdout.range(of: "kiwi")!.lowerBound < q.stdout.range(of: "fig")!.lowerBound)

        let u = try VellumBinary.run(["update", url, "Product", "--where", "name == 'fig'", "price=3"])
        #expect(u.status == 0 && u.stdout == "updated 1 object\n", "\(u.stderr)")
        let d = try VellumBinary.run(["delete", url, "Product", "--where", "price < 2"])
        #expect(d.status == 0 && d.stdout == "deleted 1 object\n", "\(d.stderr)")
        let rows = try PGConnection(url: url).rows(#"SELECT "name" || ':' || "price"::text FROM "Product" ORDER BY "name""#)
        #expect(rows == [[.string("fig:3")]])
    }

    @Test func aSchemaWithoutAStoreIsSaidSo() throws {
        let url = try PostgreSQLCluster.shared().makeSchema("empty")
        let r = try VellumBinary.run(["query", url, "Product"])
        #expect(r.status != 0 && r.stderr.contains("holds no Vellum store"), "\(r.stderr)")
    }
}
