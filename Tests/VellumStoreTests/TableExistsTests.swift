import Foundation
import Testing
@testable import VellumStore

/// `Connection.tableExists` reads the file's schema as it is now: tables only (by their exact
/// name), the connection's own uncommitted changes, and another connection's committed ones.
/// (SQLite's `sqlite3_table_column_metadata` would be cheaper, but it answers from the schema
/// the connection loaded earlier: the second test fails with it.)
@Suite("Connection.tableExists")
struct TableExistsTests {
    @Test func tablesAreFoundViewsAndMissingNamesAreNot() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        #expect(try !c.tableExists("Item"))
        try c.execute(#"CREATE TABLE "Item" (a INTEGER); CREATE VIEW "ItemView" AS SELECT a FROM "Item"; CREATE TABLE "odd ""name""" (b)"#)
        #expect(try c.tableExists("Item"))
        #expect(try c.tableExists(#"odd "name""#))
        #expect(try !c.tableExists("ItemView"), "a view is not a table")
        #expect(try !c.tableExists("Items"))
        try c.execute("BEGIN")
        try c.execute(#"CREATE TABLE "Later" (x); DROP TABLE "Item""#)
        #expect(try c.tableExists("Later") && !c.tableExists("Item"), "the transaction's own changes are seen")
        try c.execute("ROLLBACK")
        #expect(try !c.tableExists("Later") && c.tableExists("Item"))
    }

    @Test func anotherConnectionsNewTableIsSeen() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("table-exists-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("t.sqlite").path
        let a = try Connection(path: path, options: .init(create: true))
        let b = try Connection(path: path)
        #expect(try !b.tableExists("T"))
        try a.execute("CREATE TABLE T (x)")
        #expect(try b.tableExists("T"), "the schema is read again when the file's schema changed")
    }
}
