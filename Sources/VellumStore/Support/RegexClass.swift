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
    case ascii, alnum, punct, graph, print, xdigit, blank, cntrl, assigned
    case categories(Set<Unicode.GeneralCategory>)
    case binary(RegexBinaryProperty)

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
        case .assigned: return p.generalCategory != .unassigned
        case .categories(let cs): return cs.contains(p.generalCategory)
        case .binary(let b): return b.holds(p)
        }
    }

    private static let marks: Set<Unicode.GeneralCategory> = [.nonspacingMark, .spacingMark, .enclosingMark]
    private static let punctuation: Set<Unicode.GeneralCategory> = [
        .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
        .initialPunctuation, .finalPunctuation, .otherPunctuation,
    ]
    private static let invisible: Set<Unicode.GeneralCategory> = [.control, .surrogate, .unassigned]

    /// The class `\p{name}` and `[:name:]` stand for, as ICU reads the name: general
    /// categories (short and long names, `gc=…`), the binary properties Swift computes
    /// (`Alphabetic`, `WSpace`, `Alphabetic=No`), POSIX-like names, and an `Is` prefix
    /// (`IsLu`). Scripts and blocks are nil (an error): Swift has no data for them.
    static func named(_ raw: String) -> RegexClass? {
        func loose(_ s: Substring) -> String { s.lowercased().filter { $0 != "_" && $0 != " " && $0 != "-" } }
        if let equals = raw.firstIndex(of: "=") {
            let key = loose(raw[..<equals]), value = loose(raw[raw.index(after: equals)...])
            if key == "gc" || key == "generalcategory" { return categoryNames[value].map { .property(.categories($0)) } }
            guard let b = RegexBinaryProperty.named[key] else { return nil }
            switch value {
            case "yes", "y", "true", "t": return .property(.binary(b))
            case "no", "n", "false", "f": return .negated(.property(.binary(b)))
            default: return nil
            }
        }
        if let p = simplyNamed(loose(raw[...])) { return .property(p) }
        // ICU's `Is` prefix is case-sensitive: `IsLu`, `Is_Lu`, not `isLu`.
        if raw.hasPrefix("Is"), let p = simplyNamed(loose(raw.dropFirst(2))) { return .property(p) }
        return nil
    }

    private static func simplyNamed(_ name: String) -> RegexProperty? { simpleNames[name] }

    /// The names `\p{name}` takes without `=` (loosely spelled, no `Is` prefix): general
    /// categories first, then POSIX-like names, then binary properties.
    static let simpleNames: [String: RegexProperty] = {
        var out: [String: RegexProperty] = [:]
        for (name, b) in RegexBinaryProperty.named { out[name] = .binary(b) }
        let posix: [(String, RegexProperty)] = [
            ("any", .any), ("assigned", .assigned), ("alpha", .alphabetic), ("alphabetic", .alphabetic), ("upper", .uppercase),
            ("uppercase", .uppercase), ("lower", .lowercase), ("lowercase", .lowercase), ("digit", .digit), ("space", .space),
            ("whitespace", .space), ("word", .word), ("ascii", .ascii), ("alnum", .alnum), ("punct", .punct), ("graph", .graph),
            ("print", .print), ("xdigit", .xdigit), ("blank", .blank), ("cntrl", .cntrl),
        ]
        for (name, p) in posix { out[name] = p }
        for (name, cs) in categoryNames { out[name] = .categories(cs) }
        return out
    }()

    /// General categories by short and long name (loosely spelled), as `gc=` takes them.
    static let categoryNames: [String: Set<Unicode.GeneralCategory>] = {
        let groups: [(String, String, [Unicode.GeneralCategory])] = [
            ("l", "letter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]),
            ("lu", "uppercaseletter", [.uppercaseLetter]), ("ll", "lowercaseletter", [.lowercaseLetter]),
            ("lt", "titlecaseletter", [.titlecaseLetter]), ("lm", "modifierletter", [.modifierLetter]),
            ("lo", "otherletter", [.otherLetter]), ("lc", "casedletter", [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter]),
            ("m", "mark", [.nonspacingMark, .spacingMark, .enclosingMark]),
            ("mn", "nonspacingmark", [.nonspacingMark]), ("mc", "spacingmark", [.spacingMark]),
            ("me", "enclosingmark", [.enclosingMark]),
            ("n", "number", [.decimalNumber, .letterNumber, .otherNumber]),
            ("nd", "decimalnumber", [.decimalNumber]), ("nl", "letternumber", [.letterNumber]), ("no", "othernumber", [.otherNumber]),
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
    /// The scalars `(?i)` takes as `c`: those with its `fold` (most have only themselves).
    static func variants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        classes[fold(c)] ?? [c]
    }

    /// A representative of the scalars `(?i)` takes as one: ICU's simple case folding,
    /// reached through Swift's case mappings (the lowercase of the uppercase, each one
    /// scalar), so σ, ς and Σ are one, ß and ẞ, s, S and ſ, k, K and the Kelvin sign.
    static func fold(_ c: Unicode.Scalar) -> UInt32 {
        let v = c.value
        if v < 0x80 { return v >= 0x41 && v <= 0x5A ? v + 0x20 : v }
        if let special = foldings[v] { return special }
        let p = c.properties
        guard p.changesWhenCaseMapped else { return v }
        if let upper = single(p.uppercaseMapping), let lower = single(upper.properties.lowercaseMapping) { return lower.value }
        return single(p.lowercaseMapping)?.value ?? v
    }

    private static func single(_ s: String) -> Unicode.Scalar? {
        let scalars = s.unicodeScalars
        return scalars.count == 1 ? scalars.first : nil
    }

    /// Foldings the mappings do not give: ı is alone (its uppercase I folds to i, not to ı),
    /// and CaseFolding.txt joins a few scalars whose uppercase is several.
    private static let foldings: [UInt32: UInt32] = [0x131: 0x131, 0x1FD3: 0x390, 0x1FE3: 0x3B0, 0xFB05: 0xFB06]

    /// The scalars of each `fold` that several share, scanned once per process.
    static let classes: [UInt32: [Unicode.Scalar]] = {
        var byFold: [UInt32: [Unicode.Scalar]] = [:]
        var v: UInt32 = 0x80
        while v <= 0x10FFFF {
            if let s = Unicode.Scalar(v), s.properties.changesWhenCaseMapped || s.properties.changesWhenCaseFolded {
                byFold[fold(s), default: []].append(s)
            }
            v += 1
        }
        for c in UInt8(0x41)...0x5A { byFold[UInt32(c + 0x20), default: []] += [Unicode.Scalar(c + 0x20), Unicode.Scalar(c)] }
        return byFold.filter { $0.value.count > 1 }.mapValues { $0.sorted { $0.value < $1.value } }
    }()

    static func isLineTerminator(_ c: Unicode.Scalar) -> Bool {
        switch c.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }
}
