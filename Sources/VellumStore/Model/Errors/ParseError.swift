import Foundation

/// A syntax error in a predicate or sort string: where (a character offset into
/// the input) and what was expected there.
public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset in Characters from the start of the input.
    public var position: Int
    /// What the parser expected, e.g. "a value", "')'".
    public var expected: String
    /// What it found instead ("end of input" at the end).
    public var found: String

    public init(position: Int, expected: String, found: String) {
        self.position = position
        self.expected = expected
        self.found = found
    }

    public var description: String {
        "expected \(CaretDiagnostic.shortened(expected, limit: 200)) at position \(position), found \(CaretDiagnostic.shortened(found, limit: 120))"
    }

    /// The input on one line with a caret under the error position and the message after it:
    ///
    ///     price > AND name == 'x'
    ///             ^ expected a value at position 8, found 'AND'
    ///
    /// Long input is cut to a window around the position, newlines are escaped, and
    /// the caret column counts `width` cells per Character (wide CJK and emoji: 2).
    public func caretDiagnostic(input: String, width: (Character) -> Int = { _ in 1 }) -> String {
        let (text, caret) = CaretDiagnostic.lines(input: input, position: position, width: width)
        return text + "\n" + caret + " " + description
    }
}
