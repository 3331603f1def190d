import Foundation
import Testing
import VellumStore
@testable import vellum

@Suite("vellum insert/update/delete", .serialized)
struct WriteCommandTests {
    let dir = TempDir()
    var path: String { dir.path("shop.vellum") }

    init() throws { try CLIFixtures.makeShop(at: dir.path("shop.vellum")) }

    func snapshot() throws -> String { try CLIFixtures.shopSnapshot(path) }

    /// A context on the file (keep it alive while using its objects).
    func context() throws -> ManagedObjectContext {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        return try ManagedObjectContext(store: store)
    }

    @Test func insertPrintsThePermanentIDAndWrites() throws {
        let provider = try VellumBinary.run(["query", path, "Provider", "--where", "name == 'Globex'", "--format", "csv"])
        let globex = String(provider.stdout.components(separatedBy: "\r\n")[1].split(separator: ",")[0])
        let r = try VellumBinary.run(["insert", path, "Product", "name=fig", "price=2.75", "stock=7", "sku=FIG-9",
                                      "added=2024-06-01", "active=no", "provider=\(globex)"])
        #expect(r.status == 0, "\(r.stderr)")
        let uri = r.stdout.trimmingCharacters(in: .newlines)
        #expect(uri.hasPrefix("vellum://") && uri.hasSuffix("/Product/p5"), "\(uri)")
        let c = try context()
        let fig = try #require(try c.fetch("Product", where: try VellumStore.QueryPredicate(format: "name == 'fig'")).first)
        #expect(fig.objectID.uriString == uri)
        #expect(try fig.value(forKey: "price") == .double(2.75))
        #expect(try fig.value(forKey: "stock") == .integer(7))
        #expect(try fig.value(forKey: "active") == .bool(false))
        #expect(try fig.value(forKey: "added") == .date(Value.parseISO8601("2024-06-01")!))
        #expect(try fig.toOne("provider")?.objectID.uriString == globex)
        #expect(try sqliteScalar(path, "SELECT author FROM _vellum_transactions ORDER BY seq DESC LIMIT 1") == "vellum-cli")
    }

    @Test func updateAndDeleteCountObjects() throws {
        let u = try VellumBinary.run(["update", path, "Product", "--where", "price < 5", "stock=99", "sku="])
        #expect(u.status == 0, "\(u.stderr)")
        #expect(u.stdout == "updated 2 objects\n")
        #expect(try sqliteScalar(path, "SELECT group_concat(x, ' ') FROM (SELECT name || ':' || stock || ':' || ifnull(sku, 'null') AS x FROM Product WHERE stock = 99 ORDER BY name)")
                == "apple:99:null banana:99:null")
        let d = try VellumBinary.run(["delete", path, "Product", "--where", "stock == 99"])
        #expect(d.status == 0, "\(d.stderr)")
        #expect(d.stdout == "deleted 2 objects\n")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product") == "2")
        // Now Acme has no products: the deny rule lets it go.
        let p = try VellumBinary.run(["delete", path, "Provider", "--where", "name == 'Acme'"])
        #expect(p.stdout == "deleted 1 object\n")
        let none = try VellumBinary.run(["delete", path, "Product", "--where", "name == 'zzz'"])
        #expect(none.status == 0 && none.stdout == "deleted 0 objects\n")
    }

    /// Issue 11, critical 2: `NOT (name MATCHES '[a-z')` used to match every row and delete them all.
    @Test func deleteWithNotInvalidRegexDeletesNothing() throws {
        let before = try snapshot()
        let r = try VellumBinary.run(["delete", path, "Product", "--where", "NOT (name MATCHES '[a-z')"])
        #expect(r.status != 0)
        #expect(r.stdout.isEmpty, "\(r.stdout)")
        #expect(r.stderr.contains("invalid regular expression"), "\(r.stderr)")
        // The caret stands under the pattern's '[' in the line above it.
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let caretLine = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "^" }, "\(r.stderr)")
        let column = lines[caretLine].count - 1
        #expect(caretLine > 0 && Array(lines[caretLine - 1])[column] == "[", "\(r.stderr)")
        #expect(try snapshot() == before)
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product") == "4")
        // A valid pattern still deletes what it should.
        let ok = try VellumBinary.run(["delete", path, "Product", "--where", "NOT (name MATCHES '[a-z]+')"])
        #expect(ok.status == 0 && ok.stdout == "deleted 1 object\n", "\(ok.stdout)\(ok.stderr)")
    }

    @Test func badValuesWriteNothing() throws {
        let before = try snapshot()
        let cases: [([String], String)] = [
            (["insert", path, "Product", "name=x", "price=cheap"], "price"),
            (["insert", path, "Product", "name=x", "stock=70000"], "stock"),
            (["insert", path, "Product", "name=x", "added=yesterday"], "added"),
            (["insert", path, "Product", "name=x", "price=-1"], "price"),
            (["insert", path, "Product", "name=x", "sku=bad"], "sku"),
            (["insert", path, "Product", "name=x", "colour=red"], "colour"),
            (["insert", path, "Product", "price=1"], "name"),
            (["insert", path, "Product", "name=x", "provider=vellum://nope/Provider/p1"], "provider"),
            (["update", path, "Product", "--where", "TRUEPREDICATE", "price=abc"], "price"),
            (["update", path, "Product", "--where", "TRUEPREDICATE", "weight=1"], "weight"),
        ]
        for (args, key) in cases {
            let r = try VellumBinary.run(args)
            #expect(r.status != 0, "\(args)")
            #expect(r.stderr.contains(key), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
        }
        #expect(try snapshot() == before)
    }

    @Test func constraintViolationsWriteNothing() throws {
        let before = try snapshot()
        // Uniqueness: another provider named Acme; a second product with SKU APL-1 (via update of two rows).
        let dup = try VellumBinary.run(["insert", path, "Provider", "name=Acme"])
        #expect(dup.status == 1)
        #expect(dup.stderr.contains("name") && dup.stderr.contains("unique"), "\(dup.stderr)")
        let sku = try VellumBinary.run(["update", path, "Product", "--where", "price < 5", "sku=SAM-1"])
        #expect(sku.status == 1)
        #expect(sku.stderr.contains("sku"), "\(sku.stderr)")
        // Deny: Acme still has products.
        let deny = try VellumBinary.run(["delete", path, "Provider", "--where", "TRUEPREDICATE"])
        #expect(deny.status == 1)
        #expect(deny.stderr.contains("products") && deny.stderr.contains("deny"), "\(deny.stderr)")
        // A bad predicate, with a caret.
        let bad = try VellumBinary.run(["delete", path, "Product", "--where", "name =="])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("^ expected"))
        #expect(try snapshot() == before)
    }

    @Test func usageErrors() throws {
        #expect(try VellumBinary.run(["update", path, "Product", "price=1"]).status == 2)
        #expect(try VellumBinary.run(["delete", path, "Product"]).status == 2)
        #expect(try VellumBinary.run(["insert", path]).status == 2)
        #expect(try VellumBinary.run(["insert", path, "Product", "justtext"]).status == 2)
    }
}
