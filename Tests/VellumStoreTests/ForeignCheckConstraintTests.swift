import Foundation
import Testing
@testable import VellumStore

/// CHECK constraints of another program's table: read from its CREATE text, and
/// a violation reworded to name the table, the columns and the constraint's text
/// (SQLite names only the constraint or its expression); the save rolls back.
@Suite(.serialized) struct ForeignCheckConstraintTests {
    @Test func constraintsAreReadFromTheCreateText() {
        let sql = """
            CREATE TABLE [Order Line] (
                id INTEGER PRIMARY KEY,
                "unit price" REAL CHECK ("unit price" >= 0), -- a comment, with CHECK (x)
                note TEXT DEFAULT 'CHECK (no), really' CONSTRAINT short CHECK (length(note) < 20),
                lo INT, hi INT,
                CONSTRAINT "ordered" CHECK (lo < hi),
                CHECK (lo >= 0 AND (hi - lo) < 100)
            )
            """
        let found = ForeignCheckConstraint.parse(sql)
        #expect(found.map(\.expression) == [#""unit price" >= 0"#, "length(note) < 20", "lo < hi", "lo >= 0 AND (hi - lo) < 100"])
        #expect(found.map(\.name) == [nil, "short", "ordered", nil])
        #expect(found.map(\.column) == ["unit price", "note", nil, nil])
    }

    static func violate(_ dir: TempDir, _ create: String, _ values: [String: Value]) throws -> (message: String, count: String) {
        let path = dir.path("checks.sqlite")
        #expect(try runSQLite(path, create + "\nINSERT INTO item (lo, hi, qty) VALUES (1, 2, 1);").status == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("item", values: ["lo": .integer(5), "hi": .integer(6), "qty": .integer(1)])  // fine, rolled back with the next
        _ = try c.insert("item", values: values)
        var message = ""
        do { try c.save() } catch { message = "\(error)" }
        return (message, try sqliteScalar(path, "SELECT count(*) FROM item"))
    }

    @Test func aNamedTableConstraintNamesTableColumnsAndText() throws {
        let (message, count) = try Self.violate(TempDir(), """
            CREATE TABLE item (id INTEGER PRIMARY KEY, lo INT, hi INT, qty INT CHECK (qty > 0), CONSTRAINT ordered CHECK (lo < hi));
            """, ["lo": .integer(3), "hi": .integer(2), "qty": .integer(1)])
        #expect(message.contains("CHECK constraint failed: table item, columns lo, hi: CHECK (lo < hi) (constraint ordered)"), "\(message)")
        #expect(count == "1")
    }

    @Test func anUnnamedColumnConstraintNamesItsColumn() throws {
        let (message, count) = try Self.violate(TempDir(), """
            CREATE TABLE item (id INTEGER PRIMARY KEY, lo INT, hi INT, qty INT CHECK (qty > 0), CONSTRAINT ordered CHECK (lo < hi));
            """, ["lo": .integer(1), "hi": .integer(2), "qty": .integer(0)])
        #expect(message.contains("CHECK constraint failed: table item, column qty: CHECK (qty > 0)"), "\(message)")
        #expect(message.hasSuffix("CHECK (qty > 0)"), "\(message)")
        #expect(count == "1")
    }
}
