import Foundation
import Testing
@testable import VellumStore

/// What `PostgreSQLDialect` spells, run by the server: any name quoted, literals,
/// `$N` placeholders, limit/offset, insert-or-ignore, upsert, RETURNING, regex.
@Suite struct PostgreSQLDialectTests {
    let d = PostgreSQLDialect()

    @Test func namesAndLiteralsSurviveQuoting() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        // A quote a combining mark follows is one composed character to Foundation, not to SQL.
        let table = "we\"ird ta-ble; DROP \"\u{301}", column = "Select \"x\" é"
        try db.execute("CREATE TABLE \(d.quote(table)) (\(d.quote(column)) text)")
        let text = "it's \\ \"quoted\" -- not a comment, '\u{301}; DROP TABLE x; --"
        try db.execute("INSERT INTO \(d.quote(table)) VALUES (\(d.literal(text)))")
        #expect(try db.scalar("SELECT \(d.quote(column)) FROM \(d.quote(table))") == .string(text))
        #expect(d.placeholder(3) == "$3" && d.placeholders(3) == "$1, $2, $3" && d.placeholders(0) == "")
        #expect(try db.scalar("SELECT \(d.placeholder(2)) || \(d.placeholder(1)) || \(d.placeholder(2))", [.string("b"), .string("a")]) == .string("aba"))
    }

    @Test func limitOffsetInsertIgnoreUpsertAndReturning() throws {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        try db.execute("CREATE TABLE t (k bigint CONSTRAINT \(d.quote(PostgreSQLDialect.primaryKeyConstraint(of: "t"))) PRIMARY KEY, v text)")
        for k in 1...5 { try db.query(d.insertIgnoringDuplicates(into: "t", columns: ["k", "v"]), [.integer(Int64(k)), .string("v\(k)")]) }
        try db.query(d.insertIgnoringDuplicates(into: "t", columns: ["k", "v"]), [.integer(2), .string("ignored")])
        #expect(try db.scalar("SELECT v FROM t WHERE k = 2") == .string("v2"))
        try db.query(d.upsert(into: "t", columns: ["k", "v"]), [.integer(2), .string("replaced")])
        try db.query(d.upsert(into: "t", columns: ["k", "v"]), [.integer(6), .string("new")])
        #expect(try db.rows("SELECT v FROM t WHERE k IN (2, 6) ORDER BY k") == [[.string("replaced")], [.string("new")]])
        #expect(try db.rows("SELECT k FROM t ORDER BY k" + d.limitOffset(limit: 2, offset: 1)) == [[.integer(2)], [.integer(3)]])
        #expect(try db.rows("SELECT k FROM t ORDER BY k" + d.limitOffset(limit: nil, offset: 4)) == [[.integer(5)], [.integer(6)]])
        #expect(try db.rows("SELECT k FROM t ORDER BY k" + d.limitOffset(limit: 1, offset: nil)) == [[.integer(1)]])
        let returned = try db.rows(d.returning("UPDATE t SET v = v || '!' WHERE k > $1", columns: ["k", "v"]) + "", [.integer(4)])
        #expect(Set(returned.map { $0[0] }) == [.integer(5), .integer(6)] && returned.contains([.integer(6), .string("new!")]))
    }

    /// Whole-string matches, `(?i)`, `\X`, and LIKE's patterns as the compiler builds them: constant
    /// patterns translated by Vellum, and by the server (`vellum_matches`) when it reads them.
    @Test(arguments: [
        ("a.*", "abc", true), ("a.*", "xabc", false), ("b", "abc", false), ("(?i)tea", "TEA", true), ("(?i)tea", "steam", false),
        ("", "", true), ("", "a", false), ("(e|é)+\\X?", "ée\u{301}", true), ("[^a]", "é", true),
        (KeyPathComparison.likeToRegex("Gr?en*T.a"), "Green xT.a", true), (KeyPathComparison.likeToRegex("Gr?en*T.a"), "Green xTza", false),
        (KeyPathComparison.likeToRegex("100%"), "100%", true), (KeyPathComparison.likeToRegex("a?b"), "ae\u{301}b", true),
    ])
    func regularExpressionsMatchTheWholeText(_ pattern: String, _ text: String, _ expected: Bool) throws {
        let db = try Self.functions()
        var bound: [Value] = [.string(text)]
        let constant = try d.regexpMatch(constantPattern: pattern, text: "$1") { bound.append($0); return "$\(bound.count)" }
        #expect(try db.scalar("SELECT " + constant, bound) == .bool(expected))
        if !pattern.contains("(?i)") && !pattern.contains("\\X") {
            #expect(try db.scalar("SELECT " + d.regexpMatch(pattern: "$1", text: "$2"), [.string(pattern), .string(text)]) == .bool(expected))
        }
        #expect(try KeyPathComparison.matchesPattern(text, pattern) == expected, "memory agrees")
        #expect(try db.scalar("SELECT " + d.regexpMatch(pattern: "NULL", text: "$1"), [.string(text)]) == .bool(false))
    }

    @Test func anInvalidPatternIsAnErrorNotAFalse() throws {
        let db = try Self.functions()
        #expect { try db.scalar("SELECT " + d.regexpMatch(pattern: "$1", text: "'x'"), [.string("(")]) } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "2201B"
        }
    }

    /// Overflow falls back to doubles, `/` by zero is NULL, as `ValueArithmetic` (and SQLite) compute.
    @Test func arithmeticFollowsValueArithmetic() throws {
        let db = try Self.functions()
        let cases: [(String, Value, Value)] = [
            ("+", .integer(Int64.max), .integer(1)), ("*", .integer(Int64.min), .integer(-1)), ("-", .integer(5), .integer(7)),
            ("*", .integer(3), .double(0.5)), ("/", .integer(3), .integer(2)), ("/", .integer(3), .integer(0)), ("/", .double(1), .double(0)),
            ("-", .double(.infinity), .double(.infinity)), ("+", .integer(9_007_199_254_740_993), .integer(0)),
        ]
        for (op, a, b) in cases {
            let memory = ValueArithmetic.apply(ArithmeticOperator(rawValue: op)!, a, b)
            let server = try db.scalar("SELECT (" + d.arithmetic(op, "$1", "$2") + ")::text", [a, b])
            let serverNumber = server?.stringValue.flatMap(Double.init)
            switch memory {
            case .null: #expect(server == .null, "\(a) \(op) \(b)")
            case .integer(let i): #expect(server == .string(String(i)), "\(a) \(op) \(b)")
            default: #expect(serverNumber == memory.doubleValue, "\(a) \(op) \(b): \(String(describing: server)) vs \(memory)")
            }
        }
    }

    static func functions() throws -> PGConnection {
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema())
        for statement in PostgreSQLFunctions.createSQL() { try db.execute(statement) }
        return db
    }
}

extension PostgreSQLDialectTests {
    /// Doubles and integers compare by exact value, as SQLite and memory do (a query
    /// comparing an overflowed sum, 2^63, with Int64.max selected nothing).
    @Test func doublesAndIntegersCompareExactly() throws {
        let db = try Self.functions()
        let cases: [(Value, String, Value)] = [
            (.double(0x1p63), ">", .integer(Int64.max)), (.integer(Int64.max), "<", .double(0x1p63)),
            (.double(0x1p53), "<", .integer(9_007_199_254_740_993)), (.double(2.5), ">", .integer(2)),
            (.double(-2.5), "<", .integer(-2)), (.double(3), "=", .integer(3)), (.double(1e300), ">", .integer(Int64.max)),
        ]
        for (a, op, b) in cases {
            #expect(try db.scalar("SELECT $1 \(op) $2", [a, b]) == .bool(true), "\(a) \(op) \(b)")
            #expect(try db.scalar("SELECT \(d.arithmetic("+", "$1", "0::bigint")) \(op) $2", [a, b]) == .bool(true), "\(a) + 0 \(op) \(b)")
        }
    }
}
