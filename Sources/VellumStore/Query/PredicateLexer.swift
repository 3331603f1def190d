import Foundation

/// A token of the predicate language, with its start as a Unicode scalar offset.
struct PredicateToken: Sendable {
    enum Kind: Sendable, Equatable {
        /// A bare word: an identifier or (case-insensitively) a keyword.
        case word(String)
        /// `#word`: an identifier even when it spells a keyword; `#"any name"`: any name.
        case escapedWord(String)
        /// `@count`, `@sum`, ...
        case atWord(String)
        case string(String)
        case integer(Int64)
        case double(Double)
        case date(Date)
        case variable(String)
        /// Operators and punctuation: `== != < ( ) { } , . [ ] && || !` ...
        case symbol(String)
        case end

        /// Words that join or introduce operands rather than being one.
        private static let operatorWords: Set<String> = [
            "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES",
            "ANY", "SOME", "ALL", "NONE", "CAST", "SUBQUERY",
        ]

        /// True when the token can end an operand, so that a following `-` or `+`
        /// is arithmetic rather than a number's sign.
        var endsOperand: Bool {
            switch self {
            case .word(let w): return !Self.operatorWords.contains(w.uppercased())
            case .escapedWord, .atWord, .string, .integer, .double, .date, .variable: return true
            case .symbol(let s): return s == ")" || s == "}"
            case .end: return false
            }
        }
    }
    var kind: Kind
    var start: Int
    var end: Int
}

/// Splits predicate text into tokens. Errors are `ParseError`s with character offsets.
struct PredicateLexer {
    let scalars: [Unicode.Scalar]
    private var i = 0
    /// Whether the last token ended an operand (see `Kind.endsOperand`).
    private var followsOperand = false

    init(_ text: String) { scalars = Array(text.unicodeScalars) }

    /// Converts a scalar offset into a Character offset of the input.
    func characterOffset(_ scalarOffset: Int) -> Int {
        let n = min(max(0, scalarOffset), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<n])
        return String(view).count
    }

    func error(at scalarOffset: Int, expected: String, found: String? = nil) -> ParseError {
        let f: String
        if let found { f = found } else if scalarOffset >= scalars.count { f = "end of input" } else {
            f = "'\(Character(scalars[scalarOffset]))'"
        }
        return ParseError(position: characterOffset(scalarOffset), expected: expected, found: f)
    }

    private static func isIdentStart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic
    }
    private static func isIdentPart(_ c: Unicode.Scalar) -> Bool {
        c == "_" || c.properties.isAlphabetic || (c.value >= 48 && c.value <= 57) || c.properties.numericType != nil
    }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 48 && c.value <= 57 }

    private func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < scalars.count ? scalars[i + k] : nil }

    mutating func tokenize() throws(ParseError) -> [PredicateToken] {
        var tokens: [PredicateToken] = []
        while true {
            let t = try next()
            tokens.append(t)
            if t.kind == .end { return tokens }
            followsOperand = t.kind.endsOperand
        }
    }

    private mutating func word() -> String {
        var s = String.UnicodeScalarView()
        while let c = peek(), Self.isIdentPart(c) { s.append(c); i += 1 }
        return String(s)
    }

    mutating func next() throws(ParseError) -> PredicateToken {
        while let c = peek(), c.properties.isWhitespace { i += 1 }
        let start = i
        guard let c = peek() else { return PredicateToken(kind: .end, start: i, end: i) }
        func tok(_ k: PredicateToken.Kind) -> PredicateToken { PredicateToken(kind: k, start: start, end: i) }
        if Self.isIdentStart(c) { return tok(.word(word())) }
        // A sign starts a number only where an operand may begin: after an operand
        // (`qty -1`) it is the arithmetic operator.
        let signMayStartNumber = !followsOperand
        if Self.isDigit(c) || (c == "." && peek(1).map(Self.isDigit) == true)
            || (signMayStartNumber && (c == "-" || c == "+") && peek(1).map(Self.isDigit) == true)
            || (signMayStartNumber && (c == "-" || c == "+") && peek(1) == "." && peek(2).map(Self.isDigit) == true) {
            return tok(try number())
        }
        switch c {
        case "\"", "'": return tok(.string(try string(quote: c)))
        case "$":
            i += 1
            guard let d = peek(), Self.isIdentStart(d) else { throw error(at: i, expected: "a variable name after '$'") }
            return tok(.variable(word()))
        case "#":
            i += 1
            // `#"Order Details"`: a key named with spaces, quotes or other characters (another program's column).
            if let d = peek(), d == "\"" || d == "'" { return tok(.escapedWord(try string(quote: d))) }
            guard let d = peek(), Self.isIdentStart(d) else { throw error(at: i, expected: "a key name after '#'") }
            return tok(.escapedWord(word()))
        case "@":
            i += 1
            if let d = peek(), Self.isDigit(d) { return tok(.date(try date(start: start))) }
            guard let d = peek(), Self.isIdentStart(d) else {
                throw error(at: i, expected: "an aggregate (@count, @sum, @avg, @min, @max) or a date (@2024-05-01)")
            }
            return tok(.atWord(word()))
        default: break
        }
        let two = peek(1).map { String(c) + String($0) }
        if let two, ["==", "!=", "<>", "<=", ">=", "=<", "=>", "&&", "||"].contains(two) {
            i += 2
            return tok(.symbol(two))
        }
        if "=<>!(){},.[]+-*/".unicodeScalars.contains(c) {
            i += 1
            return tok(.symbol(String(c)))
        }
        throw error(at: i, expected: "a key, value, operator or parenthesis")
    }

    private mutating func number() throws(ParseError) -> PredicateToken.Kind {
        let start = i
        var text = ""
        if let c = peek(), c == "-" || c == "+" { text.unicodeScalars.append(c); i += 1 }
        var isDouble = false
        while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); i += 1 }
        if peek() == ".", let d = peek(1), Self.isDigit(d) {
            isDouble = true
            text += "."; i += 1
            while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); i += 1 }
        } else if peek() == ".", text.allSatisfy({ $0 == "-" || $0 == "+" }) {
            // ".5" handled above by the digit check; unreachable in practice.
            isDouble = true
        }
        if let e = peek(), e == "e" || e == "E" {
            var j = 1
            if let s = peek(1), s == "+" || s == "-" { j = 2 }
            if let d = peek(j), Self.isDigit(d) {
                isDouble = true
                for k in 0..<j { text.unicodeScalars.append(scalars[i + k]) }
                i += j
                while let c = peek(), Self.isDigit(c) { text.unicodeScalars.append(c); i += 1 }
            }
        }
        if let c = peek(), Self.isIdentStart(c) {
            throw error(at: i, expected: "an operator or separator after the number")
        }
        if !isDouble, let v = Int64(text) { return .integer(v) }
        guard let d = Double(text) else { throw error(at: start, expected: "a number") }
        return .double(d)
    }

    private mutating func date(start: Int) throws(ParseError) -> Date {
        var text = ""
        while let c = peek(), Self.isDigit(c) || "-:TZ.+".unicodeScalars.contains(c) { text.unicodeScalars.append(c); i += 1 }
        do { return try ISODate.read(text) } catch let e {
            throw error(at: start, expected: "a date like @2024-05-01 or @2024-05-01T12:30:00Z", found: "'@\(text)' (\(e.reason))")
        }
    }

    private mutating func string(quote: Unicode.Scalar) throws(ParseError) -> String {
        let start = i
        i += 1
        var out = String.UnicodeScalarView()
        while true {
            guard let c = peek() else { throw error(at: start, expected: "a closing \(quote == "'" ? "'" : "\"") for this string", found: "an unterminated string") }
            i += 1
            if c == quote { return String(out) }
            guard c == "\\" else { out.append(c); continue }
            guard let e = peek() else { throw error(at: i, expected: "an escape character after '\\'") }
            i += 1
            switch e {
            case "n": out.append("\n")
            case "t": out.append("\t")
            case "r": out.append("\r")
            case "0": out.append("\0")
            case "\\", "\"", "'": out.append(e)
            case "u":
                var hex = ""
                for _ in 0..<4 {
                    guard let h = peek(), h.properties.isASCIIHexDigit else {
                        throw error(at: i, expected: "four hexadecimal digits after \\u")
                    }
                    hex.unicodeScalars.append(h); i += 1
                }
                guard let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else {
                    throw error(at: i - 6, expected: "a valid Unicode scalar (surrogates are not allowed)", found: "'\\u\(hex)'")
                }
                out.append(s)
            default:
                throw error(at: i - 2, expected: "an escape (\\n \\t \\r \\0 \\\\ \\\" \\' \\uXXXX)", found: "'\\\(e)'")
            }
        }
    }
}
