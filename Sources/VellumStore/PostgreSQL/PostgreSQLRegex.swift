import Foundation

/// A MATCHES pattern (ICU syntax, as `LinearRegex` parses and runs it) spelled as a
/// PostgreSQL regular expression that matches the same texts, for `text ~ are`.
/// Nothing is left to PostgreSQL's own reading of ICU syntax, its locale or its case
/// rules: every class (`\p{…}`, `\w`, `.`, `[…]`, and `(?i)`'s case variants) becomes
/// explicit code-point ranges computed from the same Swift Unicode data memory uses
/// (`RegexScalarSet`), anchors and `\b` become lookaround, `\X` the grapheme rules as
/// Swift applies them (`GraphemeClasses`). The result is matched without flags: `.`
/// and `[^…]` then match every character, newlines included.
enum PostgreSQLRegex {
    /// The translation of `pattern`, or the error `LinearRegex` gives for it.
    static func translate(_ pattern: String) throws(RegexError) -> String {
        if let known = cache.withLock({ $0[pattern] }) { return try known.get() }
        let r = Result { () throws(RegexError) -> String in try translateUncached(pattern) }
        cache.withLock { cache in
            if cache.count > 256 { cache.removeAll() }
            cache[pattern] = r
        }
        return try r.get()
    }

    private static let cache = Locked<[String: Result<String, RegexError>]>([:])

    static func translateUncached(_ pattern: String) throws(RegexError) -> String {
        _ = try LinearRegex.cached(pattern)  // the same errors and size limits as memory
        var parser = RegexParser(pattern)
        return "^(?:" + emit(try parser.parse(flags: .init())) + ")$"
    }

    static func emit(_ node: RegexNode) -> String {
        switch node {
        case .empty: return ""
        case .scalar(let c, let caseInsensitive):
            return caseInsensitive ? bracket(RegexScalarSet.foldedLiteral(c)) : literal(c.value)
        case .set(let c): return bracket(c.scalarSet)
        case .assertion(let a): return assertion(a)
        case .grapheme: return GraphemeClasses.shared.cluster
        case .concat(let items): return items.map(emit).joined()
        case .alternation(let branches): return "(?:" + branches.map(emit).joined(separator: "|") + ")"
        case .repetition(let body, let min, let max):
            switch body {
            case .empty: return ""
            // The parser keeps an assertion's count at most 1: optional, it always holds.
            case .assertion: return min == 0 ? "" : emit(body)
            default: return repeated("(?:" + emit(body) + ")", min: min, max: max)
            }
        }
    }

    /// PostgreSQL refuses counts above 255 (`RE_DUP_MAX`): larger ones are products.
    static func repeated(_ atom: String, min: Int, max: Int?) -> String {
        let limit = 255
        func exactly(_ n: Int) -> String {
            if n <= limit { return n == 0 ? "" : n == 1 ? atom : atom + "{\(n)}" }
            return "(?:" + atom + "{\(limit)}){\(n / limit)}" + exactly(n % limit)
        }
        func upTo(_ n: Int) -> String {
            if n <= limit { return n == 0 ? "" : n == 1 ? atom + "?" : atom + "{0,\(n)}" }
            return "(?:" + atom + "{0,\(limit)}){\(n / limit)}" + upTo(n % limit)
        }
        guard let max else {
            switch min {
            case 0: return atom + "*"
            case 1: return atom + "+"
            default: return exactly(min) + atom + "*"
            }
        }
        if max <= limit && min < max { return atom + (min == 0 && max == 1 ? "?" : "{\(min),\(max)}") }
        return exactly(min) + upTo(max - min)
    }

    /// ICU's line terminators (`RegexCase.isLineTerminator`) other than `\n` and `\r`.
    static let otherTerminators = "\\u000B\\f\\u0085\\u2028\\u2029"

    static func assertion(_ a: RegexAssertion) -> String {
        let t = otherTerminators
        switch a {
        case .textStart: return "^"
        case .textEnd: return "$"
        case .textEndOrFinalLineTerminator: return "(?=(?:\\r\\n|[\\n\\r\(t)])?$)"
        // After a terminator and before a character; between `\r` and `\n` is neither a line start nor end.
        case .lineStart: return "(?:^|(?<=[\\n\(t)])(?=.)|(?<=\\r)(?=[^\\n]))"
        case .lineEnd: return "(?:$|(?=[\\r\(t)])|(?<!\\r)(?=\\n))"
        case .wordBoundary: return "(?:(?<=\(word))(?!\(word))|(?<!\(word))(?=\(word)))"
        case .notWordBoundary: return "(?:(?<=\(word))(?=\(word))|(?<!\(word))(?!\(word)))"
        // Only `\X` asserts these, and `GraphemeClasses.cluster` spells it whole.
        case .graphemeBoundary, .notGraphemeBoundary: return ""
        }
    }

    /// `\w` as `\b` reads it.
    static var word: String { bracket(RegexScalarSet.property(.word)) }

    /// The code points text can hold in PostgreSQL: no NUL, no surrogates.
    static let textScalars = RegexScalarSet([1...0xD7FF, 0xE000...RegexScalarSet.maxScalar])

    /// Matches no character (an empty set, or NUL, which no PostgreSQL text holds).
    static let never = "[^\\u0001-\\U0010FFFF]"

    /// One character of `set`: a literal, `.`, or a bracket expression, negated when shorter.
    static func bracket(_ set: RegexScalarSet) -> String {
        let positive = set.intersection(textScalars)
        guard let first = positive.ranges.first else { return never }
        let negative = textScalars.subtracting(positive)
        if negative.isEmpty { return "." }
        if positive.ranges.count == 1, first.lowerBound == first.upperBound { return literal(first.lowerBound) }
        let spelled = items(positive), inverse = items(negative)
        return inverse.utf8.count < spelled.utf8.count ? "[^" + inverse + "]" : "[" + spelled + "]"
    }

    static func items(_ set: RegexScalarSet) -> String {
        var out = ""
        for r in set.ranges {
            out += literal(r.lowerBound)
            if r.upperBound == r.lowerBound { continue }
            if r.upperBound > r.lowerBound + 1 { out += "-" }
            out += literal(r.upperBound)
        }
        return out
    }

    /// A scalar as an ARE atom, in brackets too: ASCII letters and digits and non-ASCII
    /// characters as themselves, other ASCII punctuation escaped, controls as `\uXXXX`.
    static func literal(_ v: UInt32) -> String {
        switch v {
        case 0: return never
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0xA0...: return String(Unicode.Scalar(v).map(Character.init) ?? "?")
        case 0x21...0x7E: return "\\" + String(UnicodeScalar(UInt8(v)))
        default: return "\\u" + String(repeating: "0", count: 4 - String(v, radix: 16).count) + String(v, radix: 16, uppercase: true)
        }
    }
}
