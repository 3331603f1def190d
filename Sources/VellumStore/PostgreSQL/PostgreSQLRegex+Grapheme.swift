import Foundation

/// `\X` for PostgreSQL: one scalar, then more while the position is not a grapheme
/// boundary, ending at one (as `RegexProgram` runs it). "Not a boundary" is the rules
/// of UAX #29 as lookaround over classes of scalars, and each class is found by asking
/// Swift's own segmentation about every scalar (`probe`), so the classes are the ones
/// Swift's `Character`s use, whatever its Unicode version.
struct GraphemeClasses: Sendable {
    /// The ARE for `\X`.
    let cluster: String

    static let shared = GraphemeClasses()

    init() {
        // Asking about every scalar that may be in some class.
        let all = Self.candidates
        let ext = Self.probe("a", "", among: all)                     // Extend, ZWJ, SpacingMark: no break after a letter
        let control = all.subtracting(Self.probe("", "\u{300}", among: all))  // Control, CR, LF: a break before a mark
        let prepend = Self.probe("", "a", among: all)
        let afterL = Self.probe("\u{1100}", "", among: all).subtracting(ext)   // L, V, LV, LVT
        let t = Self.probe("\u{11A8}", "", among: all).subtracting(ext)
        let pictographic = Self.probe("\u{1F600}\u{200D}", "", among: all).subtracting(ext)
        let regional = Self.probe("\u{1F1E6}", "", among: all).subtracting(ext)
        let consonant = Self.probe("\u{915}\u{94D}", "", among: all).subtracting(ext)       // Indic conjuncts (InCB)
        // Telling apart the members of those.
        let hangul = afterL.union(t)
        let beforeT = Self.probe("", "\u{11A8}", among: hangul)                 // LV, V, LVT, T
        let l = afterL.subtracting(beforeT)
        let vOrLV = Self.probe("", "\u{1161}", among: hangul).subtracting(l)     // L × V, LV × V, V × V
        let v = Self.probe("\u{1161}", "", among: vOrLV)                         // V × V, not V × LV
        let lv = vOrLV.subtracting(v)
        let lvt = beforeT.subtracting(t).subtracting(vOrLV)
        let extend = Self.probe("\u{1F600}", "\u{200D}\u{1F600}", among: ext)  // Extend proper: not ZWJ or SpacingMark
        let linker = Self.probe("\u{915}", "\u{915}", among: ext)
        let linkerOrExtend = Self.probe("\u{915}", "\u{94D}\u{915}", among: ext)

        func b(_ s: RegexScalarSet) -> String { PostgreSQLRegex.bracket(s) }
        let ri = b(regional)
        // Where the scalars before and after a position stay in one cluster (GB3, GB6–GB9c, GB11–GB13).
        let joined = [
            "(?<=\\r)(?=\\n)",
            "(?<!\(b(control)))(?=\(b(ext)))",
            "(?<=\(b(prepend)))(?=\(b(control.inverted)))",
            "(?<=\(b(l)))(?=\(b(l.union(v).union(lv).union(lvt))))",
            "(?<=\(b(lv.union(v))))(?=\(b(v.union(t))))",
            "(?<=\(b(lvt.union(t))))(?=\(b(t)))",
            "(?<=\(b(consonant))\(b(linkerOrExtend))*\(b(linker))\(b(linkerOrExtend))*)(?=\(b(consonant)))",
            "(?<=\(b(pictographic))\(b(extend))*\\u200D)(?=\(b(pictographic)))",
            "(?<=(?:^|[^\(PostgreSQLRegex.items(regional))])(?:\(ri)\(ri))*\(ri))(?=\(ri))",
        ].joined(separator: "|")
        cluster = "(?:.(?:(?:\(joined)).)*(?!\(joined)))"
    }

    /// The planes that hold something besides unassigned and private-use code points (none
    /// of them default-ignorable), whose grapheme class UAX #29 defines as Other: asking
    /// about the rest, two thirds of all scalars, would find nothing.
    static let candidates: RegexScalarSet = {
        var planes: [ClosedRange<UInt32>] = []
        for plane in UInt32(0)...16 {
            let range = (plane << 16)...(plane << 16 | 0xFFFF)
            var v = range.lowerBound
            while v <= range.upperBound {
                if let s = Unicode.Scalar(v) {
                    let p = s.properties
                    if p.generalCategory != .unassigned && p.generalCategory != .privateUse || p.isDefaultIgnorableCodePoint {
                        planes.append(range)
                        break
                    }
                }
                v += 1
            }
        }
        return RegexScalarSet(planes)
    }()

    /// The scalars `x` (of `among`) for which `before + x + after` is one
    /// `Character`. All are asked at once: one text of `U+0001 before x after` runs
    /// (a control breaks on both sides), segmented by Swift. U+0001 itself, a control,
    /// joins nothing and is not asked.
    static func probe(_ before: String, _ after: String, among: RegexScalarSet) -> RegexScalarSet {
        let prefix = [UInt8(1)] + Array(before.utf8), suffix = Array(after.utf8)
        var candidates: [UInt32] = []
        for range in among.ranges {
            var value = max(range.lowerBound, 2)
            while value <= range.upperBound {
                if value < 0xD800 || value > 0xDFFF { candidates.append(value) }
                value += 1
            }
        }
        // Filled in place by index: appending run by run costs seconds in a debug build.
        var ends = [Int](repeating: 0, count: candidates.count)  // where each run's bytes end
        var bytes = [UInt8](repeating: 0, count: candidates.count * (prefix.count + suffix.count + 4))
        var used = 0
        prefix.withUnsafeBufferPointer { prefix in
            suffix.withUnsafeBufferPointer { suffix in
                candidates.withUnsafeBufferPointer { candidates in
                    ends.withUnsafeMutableBufferPointer { ends in
                        bytes.withUnsafeMutableBufferPointer { out in
                            var n = 0, k = 0
                            while k < candidates.count {
                                var j = 0
                                while j < prefix.count { out[n] = prefix[j]; n += 1; j += 1 }
                                let v = candidates[k]
                                if v < 0x80 {
                                    out[n] = UInt8(v); n += 1
                                } else if v < 0x800 {
                                    out[n] = UInt8(0xC0 | v >> 6); out[n + 1] = UInt8(0x80 | v & 0x3F); n += 2
                                } else if v < 0x10000 {
                                    out[n] = UInt8(0xE0 | v >> 12); out[n + 1] = UInt8(0x80 | v >> 6 & 0x3F); out[n + 2] = UInt8(0x80 | v & 0x3F); n += 3
                                } else {
                                    out[n] = UInt8(0xF0 | v >> 18); out[n + 1] = UInt8(0x80 | v >> 12 & 0x3F)
                                    out[n + 2] = UInt8(0x80 | v >> 6 & 0x3F); out[n + 3] = UInt8(0x80 | v & 0x3F); n += 4
                                }
                                j = 0
                                while j < suffix.count { out[n] = suffix[j]; n += 1; j += 1 }
                                ends[k] = n
                                k += 1
                            }
                            used = n
                        }
                    }
                }
            }
        }
        bytes.removeLast(bytes.count - used)
        let string = String(decoding: bytes, as: UTF8.self)
        let utf8 = string.utf8
        var joined: [ClosedRange<UInt32>] = []
        var k = 0
        var i = string.startIndex
        while i < string.endIndex, k < ends.count {
            let next = string.index(after: i)
            if utf8[i] == 1 {
                // Run k starts after its control; joined when its first Character ends where it does.
                if utf8.distance(from: string.startIndex, to: string.index(after: next)) == ends[k] {
                    joined.append(candidates[k]...candidates[k])
                }
                k += 1
            }
            i = next
        }
        return RegexScalarSet(joined)
    }
}
