import Foundation

/// What `TextFolding.fold` does to each Unicode scalar for one set of flags, as
/// PostgreSQL's `translate` (one scalar to one, or to none) and `replace` (one to
/// several) can apply it. Scalars it leaves alone are not listed.
struct FoldTable: Sendable {
    /// 1 = case, 2 = diacritics, 3 = both.
    let flags: Int
    /// `translate`'s lists: `from` maps position by position onto `to`; the scalars
    /// of `from` past the end of `to` are deleted.
    private(set) var from = ""
    private(set) var to = ""
    /// `translate`'s lists for the leading run of deletable scalars, which TextFolding keeps or folds alone.
    let leadingFrom: String
    let leadingTo: String
    /// Scalars that fold to several.
    private(set) var expansions: [(Unicode.Scalar, String)] = []
    /// ASCII folds to its ASCII lowercase (A-Z only) / to itself.
    let asciiIsLowercasing: Bool
    let asciiIsUnchanged: Bool

    /// The tables for flags 1, 2 and 3, computed once per process.
    static let all: [FoldTable] = [1, 2, 3].map(FoldTable.init(flags:))

    /// Every assigned scalar that can case-fold or carry a diacritic (planes 0 and 1,
    /// and the variation selectors of plane 14); NUL cannot be in PostgreSQL text.
    static let scalars: [ClosedRange<UInt32>] = [0x1...0xD7FF, 0xE000...0x1FFFF, 0xE0000...0xE01EF]

    init(flags: Int) {
        self.flags = flags
        var singlesFrom = "", singlesTo = "", deleted = ""
        var expansions: [(Unicode.Scalar, String)] = []
        var ascii: [UInt32: String] = [:]
        for range in Self.scalars {
            for value in range {
                guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned else { continue }
                let s = String(scalar)
                let folded = Self.fold(s, flags: flags)
                if folded.unicodeScalars.elementsEqual(s.unicodeScalars) { continue }
                if value < 128 { ascii[value] = folded }
                switch folded.unicodeScalars.count {
                case 0: deleted.unicodeScalars.append(scalar)
                case 1:
                    singlesFrom.unicodeScalars.append(scalar)
                    singlesTo.unicodeScalars.append(folded.unicodeScalars.first!)
                default: expansions.append((scalar, folded))
                }
            }
        }
        from = singlesFrom + deleted
        to = singlesTo
        // At the start of the text, with no base, a mark folds as it does alone (U+0345 to ι under case folding).
        var leadingFrom = "", leadingTo = ""
        for scalar in deleted.unicodeScalars {
            let folded = Self.alone(String(scalar), flags: flags).unicodeScalars
            if folded.count == 1, folded.first != scalar {
                leadingFrom.unicodeScalars.append(scalar)
                leadingTo.unicodeScalars.append(folded.first!)
            }
        }
        self.leadingFrom = leadingFrom
        self.leadingTo = leadingTo
        self.expansions = expansions
        let lowercasing = Dictionary(uniqueKeysWithValues: (65...90).map { (UInt32($0), String(UnicodeScalar(UInt8($0 + 32)))) })
        asciiIsLowercasing = flags & 1 != 0 && ascii == lowercasing
        asciiIsUnchanged = ascii.isEmpty
    }

    /// A scalar's folding where it follows a base character: `TextFolding` strips a
    /// combining mark only there (one at the start of the text stays), so each
    /// scalar is folded after `q` (no precomposed letter starts with it), or after
    /// U+3400, an ideograph with no case.
    static func fold(_ s: String, flags: Int) -> String {
        for base: Unicode.Scalar in ["q", "\u{3400}"] {
            let folded = alone(String(base) + s, flags: flags)
            if folded.unicodeScalars.first == base { return String(folded.unicodeScalars.dropFirst()) }
        }
        return alone(s, flags: flags)
    }

    static func alone(_ s: String, flags: Int) -> String {
        TextFolding.fold(s, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
    }

    /// The scalars this table deletes (a run of them at the start of the text is not: see `leadingFrom`).
    var deleted: Substring.UnicodeScalarView { from.unicodeScalars.dropFirst(to.unicodeScalars.count) }

    /// What the SQL function computes, in Swift: the leading run of deletable
    /// scalars kept, then translate, replace, and NFC.
    func apply(_ text: String) -> String {
        let map = Dictionary(uniqueKeysWithValues: zip(from.unicodeScalars, to.unicodeScalars.map { String($0) } + Array(repeating: "", count: deleted.count)))
        let expanded = Dictionary(uniqueKeysWithValues: expansions)
        let deletable = Set(deleted)
        let leadingMap = Dictionary(uniqueKeysWithValues: zip(leadingFrom.unicodeScalars, leadingTo.unicodeScalars.map { String($0) }))
        var out = ""
        var leading = true
        for scalar in text.unicodeScalars {
            leading = leading && deletable.contains(scalar)
            out += leading ? leadingMap[scalar] ?? String(scalar) : map[scalar] ?? expanded[scalar] ?? String(scalar)
        }
        return out.precomposedStringWithCanonicalMapping
    }
}
