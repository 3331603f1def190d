/// Where typed JSON stops being JSON (RFC 8259), as a line and column.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var line: Int
    /// 1-based, in Unicode scalars.
    public var column: Int
    public var message: String

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Checks that text is exactly one JSON value, for the transformable field
/// editor. Why not JSONSerialization: on Linux its errors carry no usable
/// position ("Unexpected end of file during JSON parse."), and the user needs
/// to know where to look in a line that may be longer than the screen.
public enum JSONSyntax {
    /// Deeper nesting is refused rather than risking the stack on typed input.
    static let maximumDepth = 512

    /// nil when `text` is valid JSON.
    public static func firstError(in text: String) -> JSONSyntaxError? {
        var scanner = Scanner(Array(text.unicodeScalars))
        do throws(JSONSyntaxError) {
            scanner.skipWhitespace()
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if !scanner.atEnd { throw scanner.error("unexpected \(scanner.describeCurrent()) after the value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) { self.scalars = scalars }

        var atEnd: Bool { index >= scalars.count }
        var current: Unicode.Scalar? { atEnd ? nil : scalars[index] }

        func error(_ message: String) -> JSONSyntaxError {
            var line = 1, column = 1
            for scalar in scalars[..<min(index, scalars.count)] {
                if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
            }
            return JSONSyntaxError(line: line, column: column, message: message)
        }

        func describeCurrent() -> String {
            guard let c = current else { return "end of text" }
            return c.properties.generalCategory == .control ? "control character" : "'\(c)'"
        }

        mutating func skipWhitespace() {
            while let c = current, c == " " || c == "\t" || c == "\n" || c == "\r" { index += 1 }
        }

        mutating func expect(_ scalar: Unicode.Scalar, _ what: String) throws(JSONSyntaxError) {
            guard current == scalar else { throw error("expected \(what), found \(describeCurrent())") }
            index += 1
        }

        mutating func value(depth: Int) throws(JSONSyntaxError) {
            guard depth < JSONSyntax.maximumDepth else { throw error("nested deeper than \(JSONSyntax.maximumDepth) levels") }
            guard let c = current else { throw error("expected a value, found end of text") }
            switch c {
            case "{": try object(depth: depth)
            case "[": try array(depth: depth)
            case "\"": try string()
            case "-", "0"..."9": try number()
            case "t": try literal("true")
            case "f": try literal("false")
            case "n": try literal("null")
            default: throw error("expected a value, found \(describeCurrent())")
            }
        }

        mutating func object(depth: Int) throws(JSONSyntaxError) {
            index += 1
            skipWhitespace()
            if current == "}" { index += 1; return }
            while true {
                guard current == "\"" else { throw error("expected a \"key\" in quotes, found \(describeCurrent())") }
                try string()
                skipWhitespace()
                try expect(":", "':' after the key")
                skipWhitespace()
                try value(depth: depth + 1)
                skipWhitespace()
                if current == "}" { index += 1; return }
                try expect(",", "',' or '}'")
                skipWhitespace()
            }
        }

        mutating func array(depth: Int) throws(JSONSyntaxError) {
            index += 1
            skipWhitespace()
            if current == "]" { index += 1; return }
            while true {
                try value(depth: depth + 1)
                skipWhitespace()
                if current == "]" { index += 1; return }
                try expect(",", "',' or ']'")
                skipWhitespace()
            }
        }

        mutating func string() throws(JSONSyntaxError) {
            index += 1
            while let c = current {
                switch c {
                case "\"": index += 1; return
                case "\\":
                    index += 1
                    switch current {
                    case "\"", "\\", "/", "b", "f", "n", "r", "t": index += 1
                    case "u":
                        index += 1
                        for _ in 0..<4 {
                            guard let h = current, Character(h).isHexDigit else { throw error("expected 4 hex digits after \\u") }
                            index += 1
                        }
                    default: throw error("unknown escape \\\(current.map(String.init) ?? "")")
                    }
                case _ where c.value < 0x20: throw error("control character in a string (write it as an escape)")
                default: index += 1
                }
            }
            throw error("unterminated string")
        }

        mutating func digits() -> Int {
            let start = index
            while let c = current, ("0"..."9").contains(c) { index += 1 }
            return index - start
        }

        mutating func number() throws(JSONSyntaxError) {
            if current == "-" { index += 1 }
            if current == "0" { index += 1 } else if digits() == 0 { throw error("expected a digit, found \(describeCurrent())") }
            if current == "." {
                index += 1
                if digits() == 0 { throw error("expected a digit after '.', found \(describeCurrent())") }
            }
            if current == "e" || current == "E" {
                index += 1
                if current == "+" || current == "-" { index += 1 }
                if digits() == 0 { throw error("expected an exponent, found \(describeCurrent())") }
            }
        }

        mutating func literal(_ word: String) throws(JSONSyntaxError) {
            for expected in word.unicodeScalars {
                guard current == expected else { throw error("expected \(word), found \(describeCurrent())") }
                index += 1
            }
        }
    }
}
