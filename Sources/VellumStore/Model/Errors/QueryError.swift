import Foundation

/// A predicate or sort descriptor that does not fit the model, or cannot be
/// evaluated or compiled (unknown key, type mismatch, missing variable, invalid
/// regular expression). `caret`, when known, points into the text at fault.
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var caret: Caret?

    /// A Character offset into `text` (the printed comparison, or a pattern).
    public struct Caret: Sendable, Hashable {
        public var text: String
        public var position: Int
        public init(text: String, position: Int) {
            self.text = text
            self.position = position
        }
    }

    public init(_ message: String, caret: Caret? = nil) {
        self.message = message
        self.caret = caret
    }

    public var description: String { rendered() }

    /// The message and the text at fault on one line (for a status bar).
    public var oneLine: String {
        guard let caret else { return message }
        return message + " " + CaretDiagnostic.shortened(caret.text, limit: 80)
    }

    /// The message, then the text and a caret under the position (`width`: cells per Character).
    public func rendered(width: (Character) -> Int = { _ in 1 }) -> String {
        guard let caret else { return message }
        let (text, mark) = CaretDiagnostic.lines(input: caret.text, position: caret.position, width: width)
        return message + "\n" + text + "\n" + mark
    }
}
