import Foundation
import Testing
import VellumStore
@testable import vellum

/// Issue #11, torture run "Dangling references": `vellum update` clears a to-one
/// that another program pointed at a missing row, and `vellum delete` deletes its object.
@Suite("vellum update/delete with a dangling to-one", .serialized)
struct DanglingReferenceCLITests {
    let dir = TempDir()
    var path: String { dir.path("shop.vellum") }

    init() throws {
        try CLIFixtures.makeShop(at: dir.path("shop.vellum"))
        #expect(try runSQLite(dir.path("shop.vellum"), "UPDATE Product SET provider = 999 WHERE name = 'apple';\n").status == 0)
    }

    @Test func updateClearsADanglingToOne() throws {
        let r = try VellumBinary.run(["update", path, "Product", "--where", "name == 'apple'", "provider="])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "updated 1 object\n")
        #expect(try sqliteScalar(path, "SELECT quote(provider) FROM Product WHERE name = 'apple'") == "NULL")
    }

    @Test func deleteRemovesAnObjectWithADanglingToOne() throws {
        let r = try VellumBinary.run(["delete", path, "Product", "--where", "name == 'apple'"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "deleted 1 object\n")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product WHERE name = 'apple'") == "0")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Product") == "3")
    }
}
