import Foundation
import Testing
@testable import VellumStore

/// Predicates far longer than SQLite's parser stack (about 90 nested terms) and
/// expression depth (1,000) allow when compiled naively: SQL must accept them and
/// agree with in-memory evaluation.
@Suite struct LongPredicateTests {
    static func agree(_ format: String, _ fixture: QueryDifferentialTests.Fixture) throws -> [Value] {
        let (sql, memory) = try QueryDifferentialTests.rows(format, fixture)
        #expect(sql == memory, "\(format.prefix(120))…")
        return sql
    }

    @Test func longPredicatesCompile() throws {
        let fixture = try QueryDifferentialTests.makeFixture(seed: 20_261_201)
        let n = 10_000
        let ors = (0..<n).map { "qty == \($0 - 50)" }.joined(separator: " OR ")
        #expect(try !Self.agree(ors, fixture).isEmpty)
        let ands = (0..<n).map { "qty != \($0 + 100_000)" }.joined(separator: " AND ")
        #expect(try Self.agree(ands, fixture).count == fixture.items.count)   // nil != x holds
        let mixed = (0..<n).map { $0 % 3 == 0 ? "name BEGINSWITH[c] 'a'" : "qty > \($0)" }.joined(separator: " OR ")
        _ = try Self.agree(mixed, fixture)
        // `+` chains: 1 + 1 + … (10,000 ones) and alternating signs.
        let ones = Array(repeating: "1", count: n).joined(separator: " + ")
        #expect(try Self.agree("qty + \(ones) > \(n)", fixture).count > 0)
        let signs = (0..<n).map { $0 == 0 ? "qty" : ($0 % 3 == 0 ? "- 2" : "+ 1") }.joined(separator: " ")
        _ = try Self.agree("\(signs) >= 0", fixture)
        let total = (1..<n).reduce(0) { $0 + ($1 % 3 == 0 ? -2 : 1) }
        #expect(try !Self.agree("\(signs) == qty + \(total)", fixture).isEmpty)
    }

    @Test func longInListsCompile() throws {
        let fixture = try QueryDifferentialTests.makeFixture(seed: 20_261_202)
        let n = 10_000
        let integers = (0..<n).map { String($0 - 5000) }.joined(separator: ", ")
        #expect(try !Self.agree("qty IN {\(integers)}", fixture).isEmpty)
        #expect(try !Self.agree("NOT (qty IN {\(integers), nil})", fixture).isEmpty)
        let strings = (QueryDifferentialTests.strings + (0..<n).map { "s\($0)" }).map { PredicatePrinter.quote($0) }.joined(separator: ", ")
        for op in ["IN", "IN[cd]"] { _ = try Self.agree("name \(op) {\(strings)}", fixture) }
        _ = try Self.agree("ANY tags.name IN[c] {\(strings), nil}", fixture)
        let doubles = (0..<n).map { "\(Double($0) / 4)" }.joined(separator: ", ")
        _ = try Self.agree("price IN {\(doubles)}", fixture)
        let owners = (0..<n).map { String($0) }.joined(separator: ", ")
        #expect(try !Self.agree("owner IN {\(owners)}", fixture).isEmpty)
    }

    @Test func foldingDoesNotStopAtNUL() throws {
        let conn = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        #expect(try conn.scalarText("SELECT vellum_fold(?, 1)", [.string("AB\0CD")]) == "ab\0cd")
        #expect(try conn.scalarInt("SELECT length(CAST(vellum_fold(?, 3) AS BLOB))", [.string("É\0X")]) == 3)
        #expect(try conn.scalarInt("SELECT vellum_regexp('a.b', ?)", [.string("a\0b")]) == 1)
        #expect(try conn.scalarInt("SELECT vellum_regexp('a', ?)", [.string("a\0b")]) == 0)
        // Through predicates, SQL and memory: the text after the NUL counts.
        let (table, layout, objects) = try RegexTests.table(["a\0b", "a\0c", "a", "A\0B"])
        for format in ["name ==[cd] 'A\\0B'", "name BEGINSWITH[c] 'a\\0b'", "name CONTAINS[cd] '\\0C'", "name ENDSWITH[c] '\\0B'", "name MATCHES[c] 'A\\\\x00B'"] {
            let sql = RegexTests.sql(format, table, layout), memory = RegexTests.memory(format, objects)
            #expect(sql == memory, "\(format)")
            #expect(sql == .success(format.contains("C'") ? [2] : [1, 4]), "\(format): \(sql)")
        }
    }
}
