import Foundation
import Testing
import VellumStore

/// `vellum query` and `vellum update` on a copy of a Core Data store: the rows are what
/// raw SQL over the `Z_` tables says, and an update is what `sqlite3` reads (Z_OPT + 1).
@Suite struct CoreDataCLITests {
    @Test func queryAcrossARelationshipAndUpdateAsCoreDataWould() throws {
        let copy = try CoreDataFixtureCopy("Moody-v1.sqlite")
        let path = copy.url.path
        let query = try VellumBinary.run(["query", path, "Mood", "--where", "country.numericISO3166Code > 220 AND country.numericISO3166Code != 704",
                                          "--sort", "remoteIdentifier", "--format", "csv"])
        #expect(query.status == 0, "\(query.stderr)")
        let expected = try sqliteRows(path, """
            SELECT m.ZREMOTEIDENTIFIER FROM ZMOOD m JOIN ZGEOGRAPHICREGION r ON r.Z_PK = m.ZCOUNTRY
            WHERE r.ZNUMERICISO3166CODE > 220 AND r.ZNUMERICISO3166CODE != 704 ORDER BY m.ZREMOTEIDENTIFIER
            """)
        let lines = query.stdout.split(whereSeparator: \.isNewline).map(String.init)
        let column = try #require(lines.first?.split(separator: ",").firstIndex(of: "remoteIdentifier"))
        #expect(lines.dropFirst().map { String($0.split(separator: ",", omittingEmptySubsequences: false)[column]) } == expected, "\(query.stdout)")

        let key = try sqliteScalar(path, "SELECT min(Z_PK) FROM ZMOOD")
        let opt = try #require(Int(try sqliteScalar(path, "SELECT Z_OPT FROM ZMOOD WHERE Z_PK = \(key)")))
        let id = try sqliteScalar(path, "SELECT ZREMOTEIDENTIFIER FROM ZMOOD WHERE Z_PK = \(key)")
        let update = try VellumBinary.run(["update", path, "Mood", "--where", "remoteIdentifier == '\(id)'", "creatorID=vellum"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(try sqliteScalar(path, "SELECT ZCREATORID || '|' || Z_OPT FROM ZMOOD WHERE Z_PK = \(key)") == "vellum|\(opt + 1)")
        #expect(try sqliteScalar(path, "PRAGMA integrity_check") == "ok")
        #expect(copy.originalUnchanged())
    }
}
