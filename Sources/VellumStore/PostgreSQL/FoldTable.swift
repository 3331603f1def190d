import Foundation

/// What `TextFolding.fold` does for one set of flags, as tables PostgreSQL can apply:
/// `translate` (one scalar to one, or to none) and `replace` (one to several) for
/// base characters, and with diacritic folding `MarkRule` for the marks after them.
/// Everything here is found by asking `TextFolding`, scalar by scalar.
struct FoldTable: Sendable {
    /// 1 = case, 2 = diacritics, 3 = both.
    let flags: Int
    /// `translate`'s lists: `from` maps position by position onto `to`; the scalars
    /// of `from` past the end of `to` are deleted. Marks are not listed with diacritic
    /// folding: `marks` decides them.
    private(set) var from = ""
    private(set) var to = ""
    /// Scalars that fold to several.
    private(set) var expansions: [(Unicode.Scalar, String)] = []
    /// ASCII folds to its ASCII lowercase (A-Z only) / to itself.
    let asciiIsLowercasing: Bool
    let asciiIsUnchanged: Bool
    /// What becomes of combining marks; nil without diacritic folding, where every scalar folds alone.
    let marks: MarkRule?

    /// The tables for flags 1, 2 and 3, computed once per process.
    static let all: [FoldTable] = [1, 2, 3].map(FoldTable.init(flags:))

    /// The scalars asked about: planes 0 and 1 (every script with case or marks) and
    /// the tags and variation selectors of plane 14; NUL cannot be in PostgreSQL text.
    /// Past them Foundation knows no mark or case, and decomposes nothing to below
    /// U+0510: a scalar there folds to itself and keeps its marks (`MarkRule`).
    static let scalars: [ClosedRange<UInt32>] = [0x1...0xD7FF, 0xE000...0x1FFFF, 0xE0000...0xE0FFF]

    init(flags: Int) {
        self.flags = flags
        let diacritics = flags & 2 != 0
        var singlesFrom = "", singlesTo = "", deleted = ""
        var expansions: [(Unicode.Scalar, String)] = []
        var ascii: [UInt32: String] = [:]
        var rule = diacritics ? MarkRule() : nil
        for range in Self.scalars {
            for value in range {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let assigned = scalar.properties.generalCategory != .unassigned
                if !assigned && !diacritics { continue }
                // After `q` (no letter composes with it), a mark Foundation strips is gone.
                let afterQ = assigned ? Self.alone("q" + String(scalar), flags: flags) : "q" + String(scalar)
                if diacritics && afterQ == "q" {
                    rule!.addMark(scalar, flags: flags)
                    continue
                }
                let folded = afterQ.unicodeScalars.first == "q" ? String(afterQ.unicodeScalars.dropFirst()) : Self.alone(String(scalar), flags: flags)
                if diacritics { rule!.addBase(scalar, flags: flags) }
                // A canonical equivalent (`==`) is left to the final NFC.
                if folded == String(scalar) { continue }
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
        self.expansions = expansions
        marks = rule
        let lowercasing = Dictionary(uniqueKeysWithValues: (65...90).map { (UInt32($0), String(UnicodeScalar(UInt8($0 + 32)))) })
        asciiIsLowercasing = flags & 1 != 0 && ascii == lowercasing
        asciiIsUnchanged = ascii.isEmpty
        let map = Dictionary(uniqueKeysWithValues: zip(from.unicodeScalars, to.unicodeScalars.map { String($0) } + Array(repeating: "", count: deleted.unicodeScalars.count)))
        baseFolds = map.merging(expansions.map { ($0.0, $0.1) }) { a, _ in a }
    }

    static func alone(_ s: String, flags: Int) -> String {
        TextFolding.fold(s, caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
    }

    /// `from`/`to` and `expansions` as one map, for `apply`.
    private let baseFolds: [Unicode.Scalar: String]

    /// What the SQL functions compute, in Swift: marks kept or dropped and ordered as
    /// `MarkRule` says (`vellum_fold_clusters`), then translate, replace and NFC.
    func apply(_ text: String) -> String {
        let arranged = marks?.arrange(text) ?? text
        var out = ""
        for scalar in arranged.unicodeScalars {
            if let folded = baseFolds[scalar] { out += folded } else { out.unicodeScalars.append(scalar) }
        }
        return out.precomposedStringWithCanonicalMapping
    }
}

/// How Foundation folds the combining marks after a base with diacritic folding
/// (CFStringFold). It folds a base character together with the grapheme extenders
/// (`marks`) after it, and a mark at the start of the text, or past a full cluster,
/// is the base of its own. What happens to the marks depends on the base:
/// - a base that folds to a letter below U+0510 (Latin, Greek, Cyrillic; `stripping`)
///   loses them all;
/// - any other base keeps them, except a first mark below U+0510 (`low`); under case
///   folding too, a base that case folding changes keeps every mark (`keeping`);
/// - kept marks are decomposed and stably sorted by combining class (after the
///   leading class-0 run), so class-0 marks move before the others;
/// - a cluster holds 64 scalars at most: the next mark starts a new one.
/// Each set is found by folding probes; `FoldTableTests` checks the rule against
/// Foundation for every scalar.
struct MarkRule: Sendable {
    /// Grapheme extenders as Foundation knows them.
    private(set) var marks = Set<UInt32>()
    /// Bases (or marks, where they are bases) whose marks all go.
    private(set) var stripping = Set<UInt32>()
    /// Bases whose marks all stay (case folding changed them).
    private(set) var keeping = Set<UInt32>()
    /// A mark's fold where it is a base, when that changes it.
    private(set) var leads: [(Unicode.Scalar, String)] = []
    /// Combining class other than 0 as Foundation sorts by it: marks by their class (it
    /// never changes once assigned), the few bases with one by probing.
    private(set) var nonzero = Set<UInt32>()
    /// Marks Foundation decomposes into several scalars where they are kept.
    private(set) var decompositions: [(Unicode.Scalar, String)] = []
    /// `keeping` bases whose fold (before NFC) has several scalars: they fill more of a cluster.
    private(set) var keepingLengths: [UInt32: Int] = [:]

    /// The most scalars Foundation folds in one cluster.
    static let clusterCapacity = 64
    /// Marks below this are stripped even where the rest are kept.
    static let lowLimit: UInt32 = 0x510

    /// How many probes survive after `scalar`: 0 all go, 1 the first goes, 2 both stay.
    private static func kept(after scalar: Unicode.Scalar, flags: Int) -> Int {
        // U+0305 composes with nothing, so it is found as it went in.
        let probe: Unicode.Scalar = scalar == "\u{305}" ? "\u{30D}" : "\u{305}"
        var s = String(scalar)
        s.unicodeScalars.append(probe)
        s.unicodeScalars.append(probe)
        return FoldTable.alone(s, flags: flags).unicodeScalars.filter { $0 == probe }.count
    }

    mutating func addMark(_ scalar: Unicode.Scalar, flags: Int) {
        let value = scalar.value
        marks.insert(value)
        if scalar.properties.canonicalCombiningClass.rawValue != 0 { nonzero.insert(value) }
        let decomposed = String(scalar).decomposedStringWithCanonicalMapping
        if decomposed.unicodeScalars.count > 1 { decompositions.append((scalar, decomposed)) }
        switch Self.kept(after: scalar, flags: flags) {
        case 0: stripping.insert(value)
        case 2: keeping.insert(value)
        default: break
        }
        let alone = FoldTable.alone(String(scalar), flags: flags)
        if alone != String(scalar) { leads.append((scalar, alone)) }
    }

    mutating func addBase(_ scalar: Unicode.Scalar, flags: Int) {
        let value = scalar.value
        switch Self.kept(after: scalar, flags: flags) {
        case 0:
            stripping.insert(value)
            return
        case 2:
            keeping.insert(value)
            // Foundation's own fold, before TextFolding's NFC, is what fills the cluster.
            let length = String(scalar).folding(options: flags & 1 != 0 ? [.caseInsensitive, .diacriticInsensitive] : .diacriticInsensitive, locale: nil).unicodeScalars.count
            if length > 1 { keepingLengths[value] = length }
        default: break
        }
        // A base with a combining class is sorted among its marks: a class-0 mark goes before it.
        if scalar.properties.canonicalCombiningClass.rawValue != 0,
           FoldTable.alone(String(scalar) + "\u{FE0F}", flags: flags).unicodeScalars.first == "\u{FE0F}" {
            nonzero.insert(value)
        }
    }

    func isLow(_ value: UInt32) -> Bool { value < Self.lowLimit && marks.contains(value) }

    /// The text before translate: dropped marks removed, kept ones decomposed and
    /// ordered, a mark that is a base folded as alone. Cluster by cluster, as Foundation.
    func arrange(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        let leadFolds = Dictionary(uniqueKeysWithValues: leads)
        let decomposed = Dictionary(uniqueKeysWithValues: decompositions)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            let base = scalars[i]
            i += 1
            let strips = stripping.contains(base.value), keeps = keeping.contains(base.value)
            var filled = keeps ? keepingLengths[base.value] ?? 1 : 1
            var zero = String.UnicodeScalarView(), other = String.UnicodeScalarView()
            if marks.contains(base.value), let folded = leadFolds[base] {
                out.append(contentsOf: folded.unicodeScalars)
            } else if nonzero.contains(base.value) {
                other.append(base)
            } else {
                out.append(base)
            }
            var first = true
            while i < scalars.count, marks.contains(scalars[i].value) {
                let mark = scalars[i]
                if strips || (!keeps && first && isLow(mark.value)) {
                    i += 1
                    first = false
                    continue
                }
                first = false
                let parts = decomposed[mark].map { Array($0.unicodeScalars) } ?? [mark]
                if filled + parts.count > Self.clusterCapacity { break }
                filled += parts.count
                i += 1
                for part in parts {
                    if nonzero.contains(part.value) { other.append(part) } else { zero.append(part) }
                }
            }
            out.append(contentsOf: zero)
            out.append(contentsOf: other)
        }
        return String(out)
    }
}
