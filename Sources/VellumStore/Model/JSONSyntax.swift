/// Where typed JSON stops being JSON (RFC 8259), as a line and column.
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var line: Int
    /// 1-based, in Unicode scalars.
    public var column: Int
    public var message: String

    public init(line: Int, column: Int, message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}

/// Checks that text is exactly one JSON value: the one JSON rule of
/// `ValueRules` for transformable attributes (the store, the field editor and
/// the CLI all ask it). Why not JSONSerialization: on Linux its errors carry no usable
/// position ("Unexpected end of file during JSON parse."), and the user needs
/// to know where to look in a line that may be longer than the screen.
public enum JSONSyntax {
    /// Deeper nesting is refused rather than risking the stack on typed input.
    public static let maximumDepth = 512

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
                        let escape = index - 1
                        index += 1
                        try surrogatePair(startingWith: try hexEscape(), escapeAt: escape)
                    default: throw error("unknown escape \\\(current.map(String.init) ?? "")")
                    }
                case _ where c.value < 0x20: throw error("control character in a string (write it as an escape)")
                default: index += 1
                }
            }
            throw error("unterminated string")
        }

        /// The code unit of `\uXXXX`, read after the `u`.
        mutating func hexEscape() throws(JSONSyntaxError) -> UInt32 {
            var unit: UInt32 = 0
            for _ in 0..<4 {
                guard let h = current, h.isASCII, let digit = Character(h).hexDigitValue else { throw error("expected 4 hex digits after \\u") }
                unit = unit << 4 | UInt32(digit)
                index += 1
            }
            return unit
        }

        /// A UTF-16 surrogate escape must be a high one followed by a low one:
        /// alone it is no character, and the store's JSON reader refuses it.
        mutating func surrogatePair(startingWith unit: UInt32, escapeAt escape: Int) throws(JSONSyntaxError) {
            func lone() -> JSONSyntaxError {
                index = escape
                return error("lone surrogate \\u\(String(unit, radix: 16, uppercase: true)) (half of a character)")
            }
            if (0xDC00...0xDFFF).contains(unit) { throw lone() }
            guard (0xD800...0xDBFF).contains(unit) else { return }
            guard current == "\\", index + 1 < scalars.count, scalars[index + 1] == "u" else { throw lone() }
            index += 2
            guard (0xDC00...0xDFFF).contains(try hexEscape()) else { throw lone() }
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
