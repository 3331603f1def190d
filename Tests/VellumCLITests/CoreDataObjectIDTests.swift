import Foundation
import Testing
import VellumStore

/// Object IDs of a Core Data store are Core Data's URIs (`x-coredata://<Z_UUID>/<Entity>/p<Z_PK>`):
/// shown so by `vellum query`, and accepted by `vellum update` to set a to-one relationship.
@Suite struct CoreDataObjectIDTests {
    @Test func coreDataURIsAreShownAndParsed() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        let path = copy.url.path
        let uuid = try sqliteScalar(path, "SELECT Z_UUID FROM Z_METADATA")
        let query = try VellumBinary.run(["query", path, "Person", "--where", "lastName != nil", "--sort", "firstName", "--format", "json"])
        #expect(query.status == 0, "\(query.stderr)")
        let records = try #require(try JSONSerialization.jsonObject(with: Data(query.stdout.utf8)) as? [[String: Any]])
        let firstKey = try sqliteScalar(path, "SELECT Z_PK FROM ZPERSON WHERE ZLASTNAME IS NOT NULL ORDER BY ZFIRSTNAME LIMIT 1")
        #expect(records.first?["_id"] as? String == "x-coredata://\(uuid)/Person/p\(firstKey)", "\(query.stdout.prefix(300))")

        let opt = try sqliteScalar(path, "SELECT Z_OPT FROM ZCAR WHERE Z_PK = 1")
        let plate = "numberPlate == '\(try sqliteScalar(path, "SELECT ZNUMBERPLATE FROM ZCAR WHERE Z_PK = 1"))'"
        #expect(try sqliteScalar(path, "SELECT count(*) FROM ZCAR WHERE ZNUMBERPLATE = (SELECT ZNUMBERPLATE FROM ZCAR WHERE Z_PK = 1)") == "1")
        let update = try VellumBinary.run(["update", path, "Car", "--where", plate, "owner=x-coredata://\(uuid)/Person/p5"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try sqliteScalar(path, "SELECT ZOWNER || '|' || Z_OPT FROM ZCAR WHERE Z_PK = 1") == "5|\((Int(opt) ?? 0) + 1)")
        let wrong = try VellumBinary.run(["update", path, "Car", "--where", plate, "owner=p5"])
        #expect(wrong.status != 0 && wrong.stderr.contains("expected x-coredata://\(uuid)/Person/p<N>"), "\(wrong.stderr)")
        #expect(try sqliteScalar(path, "PRAGMA integrity_check") == "ok")
        #expect(copy.originalUnchanged())
    }
}
