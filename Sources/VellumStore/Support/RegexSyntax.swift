import Foundation

/// A parsed regular expression. Lazy quantifiers parse as greedy ones: a whole-string
/// match (all MATCHES asks) has the same answer either way.
indirect enum RegexNode: Sendable {
    case empty
    case scalar(Unicode.Scalar, caseInsensitive: Bool)
    case set(RegexClass)
    case assertion(RegexAssertion)
    /// `\X`: one extended grapheme cluster.
    case grapheme
    case concat([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
}

enum RegexAssertion: Sendable, Hashable {
    case textStart, textEnd, textEndOrFinalLineTerminator
    case lineStart, lineEnd
    case wordBoundary, notWordBoundary
    case graphemeBoundary, notGraphemeBoundary
}

/// Parses ICU regular-expression syntax into `RegexNode`s, refusing what ICU refuses
/// and naming (as `.unsupported`) what a linear-time engine cannot run.
struct RegexParser {
    struct Flags {
        var caseInsensitive = false
        var dotAll = false
        var multiline = false
    }

    let scalars: [Unicode.Scalar]
    var i = 0
    var depth = 0
    static let maxDepth = 250
    static let maxCount = 10_000

    init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

    func peek(_ k: Int = 0) -> Unicode.Scalar? { i + k < scalars.count ? scalars[i + k] : nil }

    func invalid(_ reason: String, at offset: Int? = nil) -> RegexError { RegexError(.invalid, reason, at: offset ?? i) }

    mutating func parse(flags: Flags) throws(RegexError) -> RegexNode {
        var flags = flags
        let node = try alternation(&flags)
        if i < scalars.count { throw invalid("unmatched ')'") }
        return node
    }

    mutating func alternation(_ flags: inout Flags) throws(RegexError) -> RegexNode {
        var branches = [try sequence(&flags)]
        while peek() == "|" {
            i += 1
            branches.append(try sequence(&flags))
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    mutating func sequence(_ flags: inout Flags) throws(RegexError) -> RegexNode {
        var items: [RegexNode] = []
        while let c = peek(), c != "|", c != ")" {
            let start = i
            guard let atom = try atom(&flags) else { continue }
            items.append(try quantified(atom, start: start))
        }
        return items.isEmpty ? .empty : (items.count == 1 ? items[0] : .concat(items))
    }

    /// One atom, or nil for something that matches nothing itself (`(?i)`, `\Q\E`).
    mutating func atom(_ flags: inout Flags) throws(RegexError) -> RegexNode? {
        let start = i
        let c = scalars[i]
        i += 1
        switch c {
        case "(": return try group(&flags, start: start)
        case "[":
            return .set(try bracket(flags))
        case ".": return .set(flags.dotAll ? .property(.any) : .negated(.property(.lineTerminator)))
        case "^": return .assertion(flags.multiline ? .lineStart : .textStart)
        case "$": return .assertion(flags.multiline ? .lineEnd : .textEndOrFinalLineTerminator)
        case "*", "+", "?": throw invalid("'\(c)' has nothing to repeat", at: start)
        case "{":
            if quantifierAhead(from: start) { throw invalid("'{' has nothing to repeat", at: start) }
            return literal(c, flags)
        case "\\": return try escape(flags, start: start)
        default: return literal(c, flags)
        }
    }

    func literal(_ c: Unicode.Scalar, _ flags: Flags) -> RegexNode {
        .scalar(c, caseInsensitive: flags.caseInsensitive && RegexCase.variants(c).count > 1)
    }

    /// True when `{` at `offset` starts `{n}`, `{n,}` or `{n,m}`.
    func quantifierAhead(from offset: Int) -> Bool {
        var j = offset + 1
        var digits = 0
        while j < scalars.count, scalars[j].properties.numericType == .decimal, scalars[j].isASCII { j += 1; digits += 1 }
        return digits > 0 && j < scalars.count && (scalars[j] == "}" || scalars[j] == ",")
    }

    mutating func group(_ flags: inout Flags, start: Int) throws(RegexError) -> RegexNode? {
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw RegexError(.tooLarge, "groups nested more than \(Self.maxDepth) deep", at: start) }
        var inner = flags
        if peek() == "?" {
            i += 1
            switch peek() {
            case ":": i += 1
            case "<" where peek(1) == "=" || peek(1) == "!":
                throw RegexError(.unsupported, "lookbehind (?<\(peek(1)!)…) is not supported", at: start)
            case "<":
                i += 1
                while let c = peek(), c != ">" {
                    guard c.properties.isAlphabetic || (c.isASCII && c.properties.numericType != nil) else { throw invalid("invalid group name") }
                    i += 1
                }
                guard peek() == ">" else { throw invalid("missing '>' after the group name") }
                i += 1
            case "=", "!": throw RegexError(.unsupported, "lookahead (?\(peek()!)…) is not supported", at: start)
            case ">": throw RegexError(.unsupported, "atomic groups (?>…) are not supported", at: start)
            case "#":
                while let c = peek(), c != ")" { i += 1 }
                guard peek() == ")" else { throw invalid("missing ')' closing the comment", at: start) }
                i += 1
                return nil
            default:
                var on = true
                while let c = peek(), c != ":", c != ")" {
                    switch c {
                    case "-": on = false
                    case "i": inner.caseInsensitive = on
                    case "s": inner.dotAll = on
                    case "m": inner.multiline = on
                    case "x", "w", "u", "d":
                        throw RegexError(.unsupported, "the (?\(c)) flag is not supported", at: i)
                    default: throw invalid("unknown flag '\(c)'")
                    }
                    i += 1
                }
                guard let c = peek() else { throw invalid("missing ')'", at: start) }
                i += 1
                // `(?i)` changes the flags for the rest of the enclosing group.
                if c == ")" { flags = inner; return nil }
                let body = try alternation(&inner)
                guard peek() == ")" else { throw invalid("missing ')' for the group opened here", at: start) }
                i += 1
                return body
            }
        }
        let body = try alternation(&inner)
        guard peek() == ")" else { throw invalid("missing ')' for the group opened here", at: start) }
        i += 1
        return body
    }

    mutating func quantified(_ atom: RegexNode, start: Int) throws(RegexError) -> RegexNode {
        var node = atom
        var repeated = false
        while let c = peek() {
            let qStart = i
            var range: (Int, Int?)
            switch c {
            case "*": i += 1; range = (0, nil)
            case "+": i += 1; range = (1, nil)
            case "?": i += 1; range = (0, 1)
            case "{" where quantifierAhead(from: i): range = try interval()
            default: return node
            }
            if case .assertion = atom { range = (min(range.0, 1), min(range.1 ?? 1, 1)) }
            if peek() == "?" { i += 1 } else if peek() == "+" {
                throw RegexError(.unsupported, "possessive quantifiers (…\(c)+) are not supported", at: qStart)
            }
            if repeated { throw invalid("a quantifier cannot follow another quantifier", at: qStart) }
            repeated = true
            node = .repetition(node, min: range.0, max: range.1)
        }
        return node
    }

    mutating func interval() throws(RegexError) -> (Int, Int?) {
        let start = i
        i += 1
        func number(_ p: inout RegexParser) throws(RegexError) -> Int? {
            var n: Int?
            while let c = p.peek(), c.isASCII, let d = Int(String(c)) {
                n = (n ?? 0) * 10 + d
                if n! > Self.maxCount { throw RegexError(.tooLarge, "repetition counts above \(Self.maxCount)", at: start) }
                p.i += 1
            }
            return n
        }
        guard let low = try number(&self) else { throw invalid("a number in '{…}'", at: start) }
        var high: Int? = low
        if peek() == "," {
            i += 1
            high = try number(&self)
        }
        guard peek() == "}" else { throw invalid("missing '}' closing the repetition", at: start) }
        i += 1
        if let h = high, h < low { throw invalid("the repetition {\(low),\(h)} has its maximum below its minimum", at: start) }
        return (low, high)
    }

    /// A `\` escape outside brackets (`start` is the backslash).
    mutating func escape(_ flags: Flags, start: Int) throws(RegexError) -> RegexNode? {
        guard let c = peek() else { throw invalid("a character after '\\'", at: start) }
        switch c {
        case "A": i += 1; return .assertion(.textStart)
        case "z": i += 1; return .assertion(.textEnd)
        case "Z": i += 1; return .assertion(.textEndOrFinalLineTerminator)
        case "b": i += 1; return .assertion(.wordBoundary)
        case "B": i += 1; return .assertion(.notWordBoundary)
        case "X": i += 1; return .grapheme
        case "G": throw RegexError(.unsupported, "\\G is not supported", at: start)
        case "k": throw RegexError(.unsupported, "backreferences (\\k<name>) are not supported", at: start)
        case "Q":
            i += 1
            var items: [RegexNode] = []
            while i < scalars.count {
                if scalars[i] == "\\" && peek(1) == "E" { i += 2; break }
                items.append(literal(scalars[i], flags))
                i += 1
            }
            return items.isEmpty ? nil : .concat(items)
        case "E": i += 1; return nil
        default:
            if c.isASCII, c.properties.numericType != nil, c != "0" {
                throw RegexError(.unsupported, "backreferences (\\\(c)) are not supported", at: start)
            }
            switch try classOrScalar(start: start) {
            case .left(let set): return .set(Self.closed(set, flags, inBrackets: false))
            case .right(let s): return literal(s, flags)
            }
        }
    }

    enum Either<A, B> { case left(A), right(B) }

    /// An escape's class under `(?i)`, as ICU builds it: closed over case, then negated,
    /// so `(?i)\P{Lu}` refuses 'a' (whose variant 'A' is an uppercase letter). In brackets
    /// only negations change: the bracket closes the whole set.
    static func closed(_ set: RegexClass, _ flags: Flags, inBrackets: Bool) -> RegexClass {
        guard flags.caseInsensitive else { return set }
        if case .negated(let inner) = set { return .negated(.caseInsensitive(inner)) }
        return inBrackets ? set : .caseInsensitive(set)
    }

    /// The part of an escape shared by brackets and the rest: `\d`, `\p{…}`, `\n`, `\x41`, `\.`.
    mutating func classOrScalar(start: Int) throws(RegexError) -> Either<RegexClass, Unicode.Scalar> {
        guard let c = peek() else { throw invalid("a character after '\\'", at: start) }
        i += 1
        switch c {
        case "d": return .left(.property(.digit))
        case "D": return .left(.negated(.property(.digit)))
        case "w": return .left(.property(.word))
        case "W": return .left(.negated(.property(.word)))
        case "s": return .left(.property(.space))
        case "S": return .left(.negated(.property(.space)))
        case "h": return .left(.property(.horizontalSpace))
        case "H": return .left(.negated(.property(.horizontalSpace)))
        case "v": return .left(.property(.lineTerminator))
        case "V": return .left(.negated(.property(.lineTerminator)))
        case "p", "P":
            var name = ""
            if peek() == "{" {
                i += 1
                while let n = peek(), n != "}" { name.unicodeScalars.append(n); i += 1 }
                guard peek() == "}" else { throw invalid("missing '}' after \\\(c){", at: start) }
                i += 1
            } else if let n = peek() {
                name = String(n); i += 1
            }
            var negate = c == "P"
            if name.hasPrefix("^") { negate.toggle(); name.removeFirst() }
            guard let set = RegexProperty.named(name) else {
                throw RegexError(.unsupported, "the Unicode property '\(name)' is not supported (scripts and blocks are not; general categories such as L, Lu, Nd, P and binary properties such as Alphabetic, White_Space are)", at: start)
            }
            return .left(negate ? .negated(set) : set)
        case "t": return .right("\t")
        case "n": return .right("\n")
        case "r": return .right("\r")
        case "f": return .right("\u{0C}")
        case "a": return .right("\u{07}")
        case "e": return .right("\u{1B}")
        case "0":
            var v: UInt32 = 0
            for _ in 0..<3 {
                guard let d = peek(), d.isASCII, let n = UInt32(String(d)), n < 8 else { break }
                v = v * 8 + n; i += 1
            }
            return .right(Unicode.Scalar(v)!)
        case "x":
            if peek() == "{" {
                i += 1
                return .right(try hexScalar(digits: 1...8, start: start, closing: "}"))
            }
            return .right(try hexScalar(digits: 2...2, start: start, closing: nil))
        case "u": return .right(try hexScalar(digits: 4...4, start: start, closing: nil))
        case "U": return .right(try hexScalar(digits: 8...8, start: start, closing: nil))
        case "c":
            guard let l = peek(), l.isASCII else { throw invalid("a letter after \\c", at: start) }
            i += 1
            return .right(Unicode.Scalar(l.value & 0x1F)!)
        case "N": throw RegexError(.unsupported, "named characters (\\N{…}) are not supported", at: start)
        default:
            // ICU: an escaped letter or digit without a meaning is an error; anything else stands for itself.
            if c.properties.isAlphabetic || (c.isASCII && c.properties.numericType != nil) {
                throw invalid("unknown escape '\\\(c)'", at: start)
            }
            return .right(c)
        }
    }

    mutating func hexScalar(digits: ClosedRange<Int>, start: Int, closing: Unicode.Scalar?) throws(RegexError) -> Unicode.Scalar {
        var hex = ""
        while hex.count < digits.upperBound, let h = peek(), h.properties.isASCIIHexDigit { hex.unicodeScalars.append(h); i += 1 }
        guard digits.contains(hex.count) else { throw invalid("hexadecimal digits after the escape", at: start) }
        if let closing {
            guard peek() == closing else { throw invalid("missing '\(closing)' after the hexadecimal digits", at: start) }
            i += 1
        }
        guard let v = UInt32(hex, radix: 16), let s = Unicode.Scalar(v) else {
            throw invalid("\\x\(hex) is not a Unicode scalar", at: start)
        }
        return s
    }

    /// `[...]` after the `[`: items, ranges, nested sets, `&&` intersection, `--` difference.
    mutating func bracket(_ flags: Flags) throws(RegexError) -> RegexClass {
        let open = i - 1
        depth += 1
        defer { depth -= 1 }
        if depth > Self.maxDepth { throw RegexError(.tooLarge, "character classes nested more than \(Self.maxDepth) deep", at: open) }
        var negate = false
        if peek() == "^" { negate = true; i += 1 }
        var items: [RegexClass] = []
        var ranges: [ClosedRange<UInt32>] = []
        var first = true
        var result: RegexClass?
        func current() -> RegexClass { .union(items + (ranges.isEmpty ? [] : [.ranges(ranges)])) }
        while true {
            guard let c = peek() else { throw invalid("missing ']' for the character class opened here", at: open) }
            if c == "]" && !first { i += 1; break }
            first = false
            if c == "&" && peek(1) == "&" || c == "-" && peek(1) == "-" {
                i += 2
                let left = result.map { RegexClass.union([$0, current()]) } ?? current()
                guard peek() == "[" else { throw invalid("'[' after '\(c)\(c)'") }
                i += 1
                let right = try bracket(flags)
                result = c == "&" ? .intersection(left, right) : .difference(left, right)
                items = []; ranges = []
                continue
            }
            if c == "[" && peek(1) == ":" {
                let nameStart = i + 2
                var j = nameStart
                while j < scalars.count, scalars[j] != ":" { j += 1 }
                guard j + 1 < scalars.count, scalars[j + 1] == "]" else { throw invalid("missing ':]' after '[:'") }
                var name = String(String.UnicodeScalarView(scalars[nameStart..<j]))
                var negated = false
                if name.hasPrefix("^") { negated = true; name.removeFirst() }
                guard let p = RegexProperty.named(name) else { throw invalid("unknown class [:\(name):]") }
                i = j + 2
                items.append(Self.closed(negated ? .negated(p) : p, flags, inBrackets: true))
                continue
            }
            if c == "[" { i += 1; items.append(try bracket(flags)); continue }
            let low: Unicode.Scalar
            let itemStart = i
            if c == "\\" {
                i += 1
                switch try classOrScalar(start: itemStart) {
                case .left(let set): items.append(Self.closed(set, flags, inBrackets: true)); continue
                case .right(let s): low = s
                }
            } else {
                i += 1
                low = c
            }
            // `a-z`; a `-` first, last or before `[` is literal.
            if peek() == "-", let next = peek(1), next != "]", next != "[", next != "-" {
                i += 1
                let highStart = i
                let high: Unicode.Scalar
                if next == "\\" {
                    i += 1
                    guard case .right(let s) = try classOrScalar(start: highStart) else { throw invalid("a character to end the range", at: highStart) }
                    high = s
                } else {
                    i += 1
                    high = next
                }
                guard low.value <= high.value else { throw invalid("the range \(low)-\(high) is out of order", at: itemStart) }
                ranges.append(low.value...high.value)
            } else {
                ranges.append(low.value...low.value)
            }
        }
        var set = result.map { items.isEmpty && ranges.isEmpty ? $0 : .union([$0, current()]) } ?? current()
        // Case closure before negation: `(?i)[^a]` refuses both 'a' and 'A'.
        if flags.caseInsensitive { set = .caseInsensitive(set) }
        if negate { set = .negated(set) }
        return set
    }
}
