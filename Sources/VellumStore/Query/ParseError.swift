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

    public var description: String { "expected \(expected) at position \(position), found \(found)" }

    /// The input on one line with a caret under the error position and the message below:
    ///
    ///     price > AND name == 'x'
    ///             ^ expected a value at position 8, found 'AND'
    public func caretDiagnostic(input: String) -> String {
        let line = String(input.map { $0 == "\n" || $0 == "\r" || $0 == "\t" ? " " : $0 })
        return line + "\n" + String(repeating: " ", count: max(0, position)) + "^ " + description
    }
}
