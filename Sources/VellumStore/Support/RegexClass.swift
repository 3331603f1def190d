import Foundation

/// A set of Unicode scalars a regular expression step accepts: `[a-z]`, `\d`,
/// `\p{Lu}`, `.`, combined by union, intersection, difference and negation.
indirect enum RegexClass: Sendable {
    case ranges([ClosedRange<UInt32>])
    case property(RegexProperty)
    case union([RegexClass])
    case intersection(RegexClass, RegexClass)
    case difference(RegexClass, RegexClass)
    case negated(RegexClass)
    /// Matches a scalar when the class holds it or one of its case variants.
    case caseInsensitive(RegexClass)

    func contains(_ c: Unicode.Scalar) -> Bool {
        switch self {
        case .ranges(let rs): return rs.contains { $0.contains(c.value) }
        case .property(let p): return p.contains(c)
        case .union(let cs): return cs.contains { $0.contains(c) }
        case .intersection(let a, let b): return a.contains(c) && b.contains(c)
        case .difference(let a, let b): return a.contains(c) && !b.contains(c)
        case .negated(let a): return !a.contains(c)
        case .caseInsensitive(let a): return RegexCase.variants(c).contains { a.contains($0) }
        }
    }
}

/// The named classes: `\d \w \s \h`, POSIX `[:alpha:]`, `\p{…}` general categories.
enum RegexProperty: Sendable, Hashable {
    case any, digit, word, space, horizontalSpace, lineTerminator, alphabetic, uppercase, lowercase
    case ascii, alnum, punct, graph, print, xdigit, blank, cntrl
    case categories(Set<Unicode.GeneralCategory>)

    func contains(_ c: Unicode.Scalar) -> Bool {
        let p = c.properties
        switch self {
        case .any: return true
        case .digit: return p.generalCategory == .decimalNumber
        // ICU's \w: alphabetic, marks, decimal digits, connector punctuation, ZWJ/ZWNJ.
        case .word:
            if c.isASCII { return c == "_" || (c.value | 0x20 >= 0x61 && c.value | 0x20 <= 0x7A) || (c.value >= 0x30 && c.value <= 0x39) }
            return p.isAlphabetic || Self.marks.contains(p.generalCategory) || p.generalCategory == .decimalNumber
                || p.generalCategory == .connectorPunctuation || c.value == 0x200C || c.value == 0x200D
        case .space: return p.isWhitespace
        case .horizontalSpace: return c == "\t" || p.generalCategory == .spaceSeparator
        case .lineTerminator: return RegexCase.isLineTerminator(c)
        case .alphabetic: return p.isAlphabetic
        case .uppercase: return p.isUppercase
        case .lowercase: return p.isLowercase
        case .ascii: return c.isASCII
        case .alnum: return p.isAlphabetic || p.generalCategory == .decimalNumber
        case .punct: return Self.punctuation.contains(p.generalCategory)
        case .graph: return !p.isWhitespace && !Self.invisible.contains(p.generalCategory)
        case .print: return (!p.isWhitespace || p.generalCategory == .spaceSeparator) && !Self.invisible.contains(p.generalCategory)
        case .xdigit: return p.generalCategory == .decimalNumber || (c.isASCII && "abcdefABCDEF".unicodeScalars.contains(c))
        case .blank: return c == "\t" || p.generalCategory == .spaceSeparator
        case .cntrl: return p.generalCategory == .control
        case .categories(let cs): return cs.contains(p.generalCategory)
        }
    }

    private static let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
    private static let punctuation: Set<Unicode.GeneralCategory> = [
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
        .initialPunctuation, .finalPunctuation, .otherPunctuation,
    ]
    private static let invisible: Set<Unicode.GeneralCategory> = [.control, .surrogate, .unassigned]

    /// `\p{name}` and `[:name:]`: general categories (short and long names) and a few binary properties.
    static func named(_ raw: String) -> RegexProperty? {
        let name = raw.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" }
        if let single = categoryNames[name] { return .categories(single) }
        switch name {
        case "any": return .any
        case "alpha", "alphabetic": return .alphabetic
        case "upper", "uppercase": return .uppercase
        case "lower", "lowercase": return .lowercase
        case "digit", "nd", "decimalnumber": return .digit
        case "space", "whitespace": return .space
        case "word": return .word
        case "ascii": return .ascii
        case "alnum": return .alnum
        case "punct": return .punct
        case "graph": return .graph
        case "print": return .print
        case "xdigit": return .xdigit
        case "blank": return .blank
        case "cntrl": return .cntrl
        default: return nil
        }
    }

    private static let categoryNames: [String: Set<Unicode.GeneralCategory>] = {
        let groups: [(String, String, [Unicode.GeneralCategory])] = [
            ("l", "letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            ("lu", "uppercaseletter", [.uppercaseLetter]), ("ll", "lowercaseletter", [.lowercaseLetter]),
            ("lt", "titlecaseletter", [.titlecaseLetter]), ("lm", "modifierletter", [.modifierLetter]),
            ("lo", "otherletter", [.otherLetter]),
            ("m", "mark", [.nonspacingMark, .spacingMark, .enclosingMark]),
            ("mn", "nonspacingmark", [.nonspacingMark]), ("mc", "spacingmark", [.spacingMark]),
            ("me", "enclosingmark", [.enclosingMark]),
            ("n", "number", [.decimalNumber, .letterNumber, .otherNumber]),
            ("nl", "letternumber", [.letterNumber]), ("no", "othernumber", [.otherNumber]),
            ("p", "punctuation", [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                  .initialPunctuation, .finalPunctuation, .otherPunctuation]),
            ("pc", "connectorpunctuation", [.connectorPunctuation]), ("pd", "dashpunctuation", [.dashPunctuation]),
            ("ps", "openpunctuation", [.openPunctuation]), ("pe", "closepunctuation", [.closePunctuation]),
            ("pi", "initialpunctuation", [.initialPunctuation]), ("pf", "finalpunctuation", [.finalPunctuation]),
            ("po", "otherpunctuation", [.otherPunctuation]),
            ("s", "symbol", [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]),
            ("sm", "mathsymbol", [.mathSymbol]), ("sc", "currencysymbol", [.currencySymbol]),
            ("sk", "modifiersymbol", [.modifierSymbol]), ("so", "othersymbol", [.otherSymbol]),
            ("z", "separator", [.spaceSeparator, .lineSeparator, .paragraphSeparator]),
            ("zs", "spaceseparator", [.spaceSeparator]), ("zl", "lineseparator", [.lineSeparator]),
            ("zp", "paragraphseparator", [.paragraphSeparator]),
            ("c", "other", [.control, .format, .surrogate, .privateUse, .unassigned]),
            ("cc", "control", [.control]), ("cf", "format", [.format]), ("cs", "surrogate", [.surrogate]),
            ("co", "privateuse", [.privateUse]), ("cn", "unassigned", [.unassigned]),
        ]
        var out: [String: Set<Unicode.GeneralCategory>] = [:]
        for (short, long, cats) in groups { out[short] = Set(cats); out[long] = Set(cats) }
        return out
    }()
}

/// Simple case folding and line terminators as ICU's matcher uses them.
enum RegexCase {
    /// The scalar itself and its one-scalar lower, upper and title case forms.
    static func variants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        if c.isASCII {
            let v = c.value
            if v >= 0x41 && v <= 0x5A { return [c, Unicode.Scalar(v + 0x20)!] }
            if v >= 0x61 && v <= 0x7A { return [c, Unicode.Scalar(v - 0x20)!] }
            return [c]
        }
        var out = [c]
        let p = c.properties
        for mapping in [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping] {
            let scalars = mapping.unicodeScalars
            if scalars.count == 1, let s = scalars.first, !out.contains(s) { out.append(s) }
        }
        return out
    }

    /// One representative of the scalar's case variants, to compare literals.
    static func fold(_ c: Unicode.Scalar) -> UInt32 {
        if c.isASCII { return c.value >= 0x41 && c.value <= 0x5A ? c.value + 0x20 : c.value }
        let lower = c.properties.lowercaseMapping.unicodeScalars
        if lower.count == 1, let l = lower.first { return l.value }
        return c.value
    }

    static func isLineTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
