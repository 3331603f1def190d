import Foundation
import Testing
@testable import VellumStore

/// Issue 13: SQLite lets a rowid table's declared primary key hold NULL unless it is
/// `NOT NULL` (a text, `INT` or composite key). Such rows used to share one object
/// ID — the digest of NULL — so editing one of them rewrote every one: each row now has
/// an ID of its own (from its rowid while its key is NULL) and a write changes that row only.
@Suite(.serialized) struct ForeignNullKeyTests {
    static let script = """
        CREATE TABLE code (code TEXT PRIMARY KEY, label TEXT);
        CREATE TABLE pair (a INT, b INT, note TEXT, PRIMARY KEY (a, b));
        CREATE TABLE num (n INT PRIMARY KEY, label TEXT);
        INSERT INTO code VALUES ('de', 'German'), (NULL, 'first unnamed'), (NULL, 'second unnamed');
        INSERT INTO pair VALUES (1, 2, 'one-two'), (1, NULL, 'half'), (NULL, NULL, 'none');
        INSERT INTO num VALUES (10, 'ten'), (NULL, 'nil one'), (NULL, 'nil two');
        """

    @Test(arguments: [("code", "label"), ("pair", "note"), ("num", "label")])
    func rowsWhoseKeyIsNullHaveIDsOfTheirOwnAndAWriteChangesOneRow(table: String, column: String) throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, Self.script)
        let c = try ManagedObjectContext(store: store)
        let rows = try c.fetch(FetchRequest(entityName: table))
        #expect(rows.count == 3)
        #expect(Set(rows.map(\.objectID)).count == 3, "\(rows.map(\.objectID.uriString))")
        // Each row, fetched again by its ID, is itself.
        for row in rows {
            let again = try ManagedObjectContext(store: store).existingObject(with: row.objectID)
            #expect(try again.value(forKey: column) == row.value(forKey: column))
        }
        // Editing one row whose key is NULL changes that row, and no other.
        let before = try sqliteScalar(path, "SELECT group_concat(\(column), '|') FROM (SELECT \(column) FROM \(table) ORDER BY rowid)")
        let target = try #require(rows.first { (try? $0.value(forKey: column).stringValue)?.contains("n") == true && $0 !== rows[0] })
        let old = try #require(try target.value(forKey: column).stringValue)
        try target.setValue(.string("edited"), forKey: column)
        try c.save()
        let after = try sqliteScalar(path, "SELECT group_concat(\(column), '|') FROM (SELECT \(column) FROM \(table) ORDER BY rowid)")
        #expect(after == before.replacingOccurrences(of: old, with: "edited"), "\(before) → \(after)")
        #expect(try sqliteScalar(path, "SELECT count(*) FROM \(table) WHERE \(column) = 'edited'") == "1")
        // Deleting it deletes one row.
        try c.delete(target)
        try c.save()
        #expect(try sqliteScalar(path, "SELECT count(*) FROM \(table)") == "2")
    }
}

/// Issue 13, the guard behind every write by key (`SaveWriter.checkOneRow`): a key that
/// matches two rows — here another program gave a row's `INT` key the very digest a
/// NULL-keyed row is known by — would have one delete remove both, so the save is
/// refused naming the table and the count, and nothing is written. (An update by such a
/// key is stopped before: the version check reads the other row, or, overwriting, the
/// key is seen to change.)
@Suite(.serialized) struct ForeignSharedKeyWriteTests {
    @Test func aDeleteWhoseKeyMatchesTwoRowsIsRefusedAndNothingIsWritten() throws {
        let dir = TempDir()
        let (store, path) = try ForeignGeneratedTests.make(dir, "CREATE TABLE num (n INT PRIMARY KEY, label TEXT); INSERT INTO num VALUES (NULL, 'nil one');")
        let c = try ManagedObjectContext(store: store)
        // Overwriting: the version check, which reads one of the two rows, lets the delete go
        // on to the statement, where the guard stops it.
        c.mergePolicy = .overwrite
        let row = try #require(try c.fetch(FetchRequest(entityName: "num")).first)
        let digest = try #require(row.objectID.primaryKey)
        _ = try sqliteScalar(path, "INSERT INTO num VALUES (\(digest), 'twin')")
        let rows = "SELECT group_concat(quote(n) || ':' || label, '|') FROM (SELECT * FROM num ORDER BY rowid)"
        let before = try sqliteScalar(path, rows)
        try c.delete(row)
        #expect { try c.save() } throws: { "\($0)".contains("deleting one row of num would have deleted 2: they share its key, so nothing was written") }
        #expect(try sqliteScalar(path, rows) == before)
    }
}
