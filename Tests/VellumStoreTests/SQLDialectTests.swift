import Foundation
import Testing
@testable import VellumStore

/// SQLite's dialect: each piece checked by running it on a real connection.
@Suite struct SQLDialectTests {
    let q = SQLiteDialect()

    @Test func oddIdentifiersRoundTrip() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        for name in ["plain", "with space", "quote\"inside", "select", "ünï", "a.b", "'single'", ""] where !name.isEmpty {
            try c.execute("CREATE TABLE \(q.quote(name)) (\(q.quote(name + "col")) TEXT)")
            try c.run("INSERT INTO \(q.quote(name)) (\(q.quote(name + "col"))) VALUES (\(q.placeholder(1)))", [.string(name)])
            #expect(try c.scalarText("SELECT \(q.quote(name + "col")) FROM \(q.quote(name))") == name)
        }
        #expect(q.quote("a\"b") == "\"a\"\"b\"")
        #expect(q.literal("it's") == "'it''s'")
    }

    /// A quote a combining mark follows is one composed character to Foundation (whose
    /// `replacingOccurrences` then skipped it), but two characters to SQL: left single,
    /// it ended the literal early and the rest ran as SQL.
    @Test func aQuoteACombiningMarkFollowsIsDoubled() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        let text = "it's '\u{301}); DROP TABLE t; --"
        try c.execute("CREATE TABLE t (v TEXT)")
        try c.execute("INSERT INTO t VALUES (\(q.literal(text)))")
        #expect(try c.scalarText("SELECT v FROM t") == text)
        let name = "odd \"\u{301}name"
        try c.execute("CREATE TABLE \(q.quote(name)) (\(q.quote(name)) TEXT)")
        try c.run("INSERT INTO \(q.quote(name)) VALUES (?1)", [.string(name)])
        #expect(try c.scalarText("SELECT \(q.quote(name)) FROM \(q.quote(name))") == name)
        #expect(Array(q.literal("'\u{301}").unicodeScalars) == Array("'''\u{301}'".unicodeScalars))
    }

    @Test func numberedPlaceholdersCanRepeat() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        #expect(q.placeholder(2) == "?2")
        #expect(try c.scalarInt("SELECT \(q.placeholder(2)) * 10 + \(q.placeholder(1)) + \(q.placeholder(2))", [.integer(1), .integer(3)]) == 34)
        #expect(try c.rows("SELECT \(q.placeholders(3))", [.integer(1), .integer(2), .integer(3)]) == [[.integer(1), .integer(2), .integer(3)]])
    }

    @Test func caseAndDiacriticInsensitiveComparison() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        func equal(_ a: String, _ b: String, _ flags: Int) throws -> Bool {
            try c.scalarInt("SELECT \(q.fold("?1", flags: flags)) = \(q.fold("?2", flags: flags))", [.string(a), .string(b)]) == 1
        }
        #expect(try equal("Élan", "élan", 1))
        #expect(try !equal("Élan", "Elan", 1))
        #expect(try equal("Élan", "Elan", 2))
        #expect(try !equal("Élan", "elan", 2))
        #expect(try equal("élan", "elan", 2))
        #expect(try equal("ÉLAN", "elan", 3))
        #expect(try c.scalarInt("SELECT \(q.regexpMatch(pattern: "'^a.c$'", text: "'abc'"))") == 1)
        let sorted = try c.rows("SELECT x FROM (SELECT 'b' AS x UNION ALL SELECT 'A' UNION ALL SELECT 'c') ORDER BY x\(q.sortCollation(caseInsensitive: true))")
        #expect(sorted == [[.string("A")], [.string("b")], [.string("c")]])
    }

    @Test func limitOffsetUpsertAndReturning() throws {
        let c = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        try c.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)")
        for (k, v) in [(1, "a"), (2, "b"), (3, "c")] { try c.run(q.upsert(into: "t", columns: ["k", "v"]), [.integer(Int64(k)), .string(v)]) }
        try c.run(q.upsert(into: "t", columns: ["k", "v"]), [.integer(2), .string("B")])
        try c.run(q.insertIgnoringDuplicates(into: "t", columns: ["k", "v"]), [.integer(3), .string("ignored")])
        #expect(try c.rows("SELECT v FROM t ORDER BY k" + q.limitOffset(limit: nil, offset: 1)) == [[.string("B")], [.string("c")]])
        #expect(try c.rows("SELECT v FROM t ORDER BY k" + q.limitOffset(limit: 1, offset: 1)) == [[.string("B")]])
        #expect(try c.rows("SELECT v FROM t ORDER BY k" + q.limitOffset(limit: 2, offset: nil)) == [[.string("a")], [.string("B")]])
        #expect(try c.rows(q.returning("UPDATE t SET v = 'x' WHERE k = 3", columns: ["k", "v"])) == [[.integer(3), .string("x")]])
    }
}
