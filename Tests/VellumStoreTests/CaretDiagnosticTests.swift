import Foundation
import Testing
@testable import VellumStore

/// QueryPredicate error messages: shortened around the error, newlines escaped, caret
/// under the right column after wide characters.
@Suite struct CaretDiagnosticTests {
    /// Terminal-like widths for the test: CJK and emoji take two cells.
    static func width(_ c: Character) -> Int {
        guard let v = c.unicodeScalars.first?.value else { return 0 }
        return (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFF00...0xFF60).contains(v) || (0x1F300...0x1FAFF).contains(v) ? 2 : 1
    }

    /// The column (in cells) of the caret, and the cells before the error's character on the text line.
    static func columns(_ diagnostic: String, errorCharacter: Character) throws -> (caret: Int, target: Int) {
        let lines = diagnostic.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let caret = try #require(lines[1].firstIndex(of: "^"))
        let target = try #require(lines[0].firstIndex(of: errorCharacter))
        return (lines[1].distance(from: lines[1].startIndex, to: caret),
                lines[0][..<target].reduce(0) { $0 + width($1) })
    }

    @Test func caretUnderWideCharacters() throws {
        let input = "name == '東京🍣' AND ) == 1"
        let error = try #require(parseError { try QueryPredicate(format: input) })
        let text = error.caretDiagnostic(input: input, width: Self.width)
        let (caret, target) = try Self.columns(text, errorCharacter: ")")
        #expect(caret == target, "\(text)")
    }

    @Test func longInputIsShortenedAroundTheError() throws {
        let input = (0..<2000).map { "qty == \($0)" }.joined(separator: " OR ") + " OR ) AND " + String(repeating: "x", count: 5000)
        let error = try #require(parseError { try QueryPredicate(format: input) })
        let text = error.caretDiagnostic(input: input)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0].count <= CaretDiagnostic.windowWidth + 2, "\(lines[0].count)")
        #expect(lines[0].hasPrefix("…") && lines[0].hasSuffix("…"), "\(lines[0])")
        let (caret, target) = try Self.columns(text, errorCharacter: ")")
        #expect(caret == target, "\(text)")
        #expect(lines[1].count < 300, "\(lines[1].count)")
    }

    @Test func newlinesAreEscapedAndTheCaretStaysAligned() throws {
        let input = "name == 'a'\nAND\tqty >\r\n== 3"
        let error = try #require(parseError { try QueryPredicate(format: input) })
        let text = error.caretDiagnostic(input: input)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2, "\(text)")
        #expect(lines[0] == "name == 'a'\\nAND\\tqty >\\r\\n== 3", "\(text)")
        // The error is at the second `==` (after `qty >`); escapes widen the line, and the caret follows.
        let caret = try #require(lines[1].firstIndex(of: "^")).utf16Offset(in: lines[1])
        let expected = try #require(lines[0].range(of: "== 3")).lowerBound.utf16Offset(in: lines[0])
        #expect(caret == expected, "\(text)")
    }

    @Test func longFoundTokenIsShortened() throws {
        let input = "name == 'a' '" + String(repeating: "y", count: 10_000) + "'"
        let error = try #require(parseError { try QueryPredicate(format: input) })
        #expect(error.description.count < 400, "\(error.description.count)")
    }
}
