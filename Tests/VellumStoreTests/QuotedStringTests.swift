import Testing
@testable import VellumStore

/// JSON strings and predicate literals share one escaper; they differ only in NUL and DEL.
@Suite struct QuotedStringTests {
    let text = "a\"b\\c\nd\re\tf\u{1}g\u{0}h\u{7f}é"

    @Test func jsonEscapesC0AsUnicodeAndLeavesDEL() {
        #expect(ExportText.jsonString(text) == "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u0000h\u{7f}é\"")
    }

    @Test func predicateLiteralsWriteNULAsBackslashZeroAndEscapeDEL() {
        #expect(PredicatePrinter.quote(text) == "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\0h\\u007fé\"")
    }

    @Test func predicateLiteralsParseBackToTheSameString() throws {
        let printed = "name == " + PredicatePrinter.quote(text)
        let parsed = try QueryPredicate(format: printed)
        #expect(parsed.description == printed)
        #expect(try QueryPredicate(format: parsed.description) == parsed)
    }
}
