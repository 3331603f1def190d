import Foundation
import Testing
@testable import VellumStore

/// A migration reads a table's columns from its `CREATE TABLE` text instead of asking
/// SQLite (`pragma_table_info`); where the text reads plainly the two must agree, and
/// anything else must fall back to SQLite (nil), never give other names.
@Suite("Schema column names")
struct SchemaColumnNamesTests {
    static let tables = [
        #"CREATE TABLE "Record" ("_pk" INTEGER PRIMARY KEY AUTOINCREMENT, "_entity" TEXT NOT NULL, "_version" INTEGER NOT NULL DEFAULT 1, "key" INTEGER, "name" TEXT)"#,
        #"CREATE TABLE "a""b" ("x""y" TEXT DEFAULT 'a, b', "z" INTEGER CHECK ("z" IN (1, 2, 3)), plain REAL, "p(q)" BLOB)"#,
        #"CREATE TABLE t (a, "b", c INTEGER DEFAULT (1 + 2), UNIQUE (a, "b"), CHECK (c > 0))"#,
        #"CREATE TABLE "Item" ("_pk" INTEGER PRIMARY KEY, "provider" INTEGER REFERENCES "Provider" ("_pk"), FOREIGN KEY ("provider") REFERENCES "Provider" ("_pk"))"#,
        #"CREATE TABLE "Ünïcode" ("名前" TEXT, "emoji 🍐" TEXT)"#,
        // Names that begin like a table constraint's keyword are columns.
        "CREATE TABLE t2 (unique_id INTEGER, check_x TEXT, \"UNIQUE\" TEXT,\n  primary_key REAL, foreign_key BLOB)",
    ]
    /// Texts this reader declines: SQLite is asked instead.
    static let declined = [
        "CREATE TABLE t (a INTEGER -- a comment, with a comma\n, b TEXT)",
        "CREATE TABLE t (a INTEGER /* (, */, b TEXT)",
        "CREATE TABLE [t] ([a] INTEGER, `b` TEXT)",
        "CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT) WITHOUT ROWID",
        #"CREATE TABLE IF NOT EXISTS t (a INTEGER)"#,
    ]

    @Test func namesReadFromTheTextAreSQLitesNames() throws {
        for sql in Self.tables {
            let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
            try c.execute(sql)
            // And after SQLite appended a column to the kept text, as a migration's ALTER does.
            let table = try #require(try c.rows("SELECT name FROM sqlite_master WHERE type = 'table'").first?[0].stringValue)
            for step in 0..<2 {
                if step == 1 { try c.execute("ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \"added, late\" TEXT DEFAULT 'x'") }
                let kept = try #require(try c.rows("SELECT sql FROM sqlite_master WHERE name = ?", [.string(table)]).first?[0].stringValue)
                let fromSQLite = try c.rows("SELECT name FROM pragma_table_info(?)", [.string(table)]).compactMap { $0[0].stringValue }
                #expect(SchemaSnapshot.columnNames(ofTable: kept) == fromSQLite, "\(kept)")
            }
        }
    }

    @Test func textsItCannotReadPlainlyAreLeftToSQLite() throws {
        for sql in Self.declined {
            let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
            try c.execute(sql)
            #expect(SchemaSnapshot.columnNames(ofTable: sql) == nil, "\(sql)")
        }
    }
}
