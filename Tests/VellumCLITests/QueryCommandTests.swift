import Foundation
import Testing
import VellumStore
@testable import vellum

@Suite("vellum query", .serialized)
struct QueryCommandTests {
    let dir = TempDir()
    var path: String { dir.path("shop.vellum") }

    init() throws { try CLIFixtures.makeShop(at: dir.path("shop.vellum")) }

    @Test func tableIsAlignedWithIDsAndToOneURIs() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--sort", "name"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix("_id "))
        for column in ["name", "price", "stock", "sku", "added", "active", "photo", "provider"] { #expect(lines[0].contains(column)) }
        // Aligned: "name" starts at the same column in every row.
        let nameColumn = lines[0].range(of: "name")!.lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].dropFirst(nameColumn).hasPrefix("apple"))
        #expect(lines[2].dropFirst(nameColumn).hasPrefix("banana"))
        #expect(lines[1].contains("/Provider/p"))
        #expect(lines[1].contains("2024-05-01T10:00:00Z"))
        #expect(lines[5] == "(4 objects)")
    }

    @Test func csvQuotesLikeRFC4180() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--sort", "name", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let records = r.stdout.components(separatedBy: "\r\n")
        #expect(records[0] == "_id,name,price,stock,sku,added,active,photo,provider")
        #expect(records[1].contains(",apple,1.5,10,APL-1,2024-05-01T10:00:00Z,true,AAEC/w==,vellum://"))
        #expect(records[3].contains(",\"cherry, \"\"red\"\"\",12.0,3,,2024-01-02T00:00:00Z,true,,"))
        #expect(records.count == 6 && records[5].isEmpty)
    }

    @Test func jsonIsAnArrayOfObjects() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--sort", "-price", "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let array = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        #expect(array.count == 4)
        #expect(array.map { $0["name"] as? String } == ["cherry, \"red\"", "date", "apple", "banana"])
        let apple = array[2]
        #expect((apple["_id"] as? String)?.hasPrefix("vellum://") == true)
        #expect((apple["_id"] as? String)?.contains("/Product/p") == true)
        #expect(apple["added"] as? String == "2024-05-01T10:00:00Z")
        #expect(apple["photo"] as? String == "AAEC/w==")
        #expect(apple["price"] as? Double == 1.5)
        #expect(apple["stock"] as? Int == 10)
        #expect(apple["active"] as? Bool == true)
        #expect((apple["provider"] as? String)?.contains("/Provider/p") == true)
        #expect(array[0]["provider"] is NSNull)
        #expect(array[0]["sku"] is NSNull)
    }

    @Test func whereSortLimitOffset() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--where", "price >= 1 AND name != 'date'",
                                      "--sort", "-price,name", "--limit", "1", "--offset", "1", "--format", "csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let records = r.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        #expect(records.count == 2)
        #expect(records[1].contains(",apple,"))
        let none = try VellumBinary.run(["query", path, "Product", "--where", "price > 1000", "--format", "json"])
        #expect(none.stdout == "[]\n")
        let byProvider = try VellumBinary.run(["query", path, "Product", "--where", "provider.name == 'Acme'", "--format", "csv"])
        #expect(byProvider.stdout.components(separatedBy: "\r\n").filter { !$0.isEmpty }.count == 3)
    }

    @Test func badPredicateShowsACaret() throws {
        let r = try VellumBinary.run(["query", path, "Product", "--where", "price > AND name == 'x'"])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        let lines = r.stderr.split(separator: "\n").map(String.init)
        let inputLine = try #require(lines.firstIndex(of: "price > AND name == 'x'"))
        #expect(lines[inputLine + 1].hasPrefix("        ^ expected"))
        #expect(lines[inputLine + 1].contains("position 8"))
    }

    @Test func unknownEntityAndKeyAreNamed() throws {
        let e = try VellumBinary.run(["query", path, "Nope"])
        #expect(e.status == 1)
        #expect(e.stderr.contains("unknown entity 'Nope'"))
        #expect(e.stderr.contains("Product"))
        let k = try VellumBinary.run(["query", path, "Product", "--where", "colour == 'red'"])
        #expect(k.status == 1)
        #expect(k.stderr.contains("colour"))
        #expect(k.stderr.contains("Product"))
        let s = try VellumBinary.run(["query", path, "Product", "--sort", "weight"])
        #expect(s.status == 1)
        #expect(s.stderr.contains("weight"))
        let f = try VellumBinary.run(["query", path, "Product", "--format", "xml"])
        #expect(f.status == 2)
        let missing = try VellumBinary.run(["query", dir.path("none.vellum"), "Product"])
        #expect(missing.status == 1)
        #expect(!FileManager.default.fileExists(atPath: dir.path("none.vellum")))
    }
}
