import Foundation

/// A set of Unicode code points as sorted, disjoint, non-adjacent ranges: a
/// `RegexClass` spelled out for engines that only know explicit ranges (PostgreSQL,
/// `PostgreSQLRegex`). Computed from the same `contains` the matcher uses, so exact
/// by construction.
struct RegexScalarSet: Equatable, Sendable {
    private(set) var ranges: [ClosedRange<UInt32>]

    static let maxScalar: UInt32 = 0x10FFFF
    static let empty = RegexScalarSet(sorted: [])
    static let all = RegexScalarSet(sorted: [0...maxScalar])

    private init(sorted: [ClosedRange<UInt32>]) { ranges = sorted }

    init(_ unsorted: [ClosedRange<UInt32>]) {
        var out: [ClosedRange<UInt32>] = []
        for r in unsorted.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = out.last, r.lowerBound <= last.upperBound &+ 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        ranges = out
    }

    /// The code points (surrogates excluded) for which `test` holds.
    init(where test: (Unicode.Scalar) -> Bool) {
        var out: [ClosedRange<UInt32>] = []
        var start: UInt32 = 0, inRun = false
        var v: UInt32 = 0
        while v <= Self.maxScalar {
            // A surrogate (no scalar) ends a run.
            let holds = Unicode.Scalar(v).map(test) ?? false
            if holds != inRun {
                if holds { start = v } else { out.append(start...(v - 1)) }
                inRun = holds
            }
            v += 1
        }
        if inRun { out.append(start...Self.maxScalar) }
        ranges = out
    }

    var isEmpty: Bool { ranges.isEmpty }

    func contains(_ v: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            if ranges[mid].upperBound < v { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count && ranges[low].contains(v)
    }

    var inverted: RegexScalarSet {
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for r in ranges {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            if r.upperBound == Self.maxScalar { return RegexScalarSet(sorted: out) }
            next = r.upperBound + 1
        }
        out.append(next...Self.maxScalar)
        return RegexScalarSet(sorted: out)
    }

    func union(_ other: RegexScalarSet) -> RegexScalarSet { RegexScalarSet(ranges + other.ranges) }

    func intersection(_ other: RegexScalarSet) -> RegexScalarSet {
        var out: [ClosedRange<UInt32>] = []
        var i = 0, j = 0
        while i < ranges.count && j < other.ranges.count {
            let a = ranges[i], b = other.ranges[j]
            let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
            if low <= high { out.append(low...high) }
            if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
        }
        return RegexScalarSet(sorted: out)
    }

    func subtracting(_ other: RegexScalarSet) -> RegexScalarSet { intersection(other.inverted) }
}

extension RegexClass {
    /// The code points the class holds (surrogates, which no text holds, in any order).
    var scalarSet: RegexScalarSet {
        switch self {
        case .ranges(let rs): return RegexScalarSet(rs)
        case .property(let p): return RegexScalarSet.property(p)
        case .union(let cs): return RegexScalarSet(cs.flatMap { $0.scalarSet.ranges })
        case .intersection(let a, let b): return a.scalarSet.intersection(b.scalarSet)
        case .difference(let a, let b): return a.scalarSet.subtracting(b.scalarSet)
        case .negated(let a): return a.scalarSet.inverted
        case .caseInsensitive(let a): return RegexScalarSet.caseClosure(a.scalarSet)
        }
    }
}

extension RegexScalarSet {
    private static let properties = Locked<[RegexProperty: RegexScalarSet]>([:])

    /// A named class's code points, scanned once per process.
    static func property(_ p: RegexProperty) -> RegexScalarSet {
        if let known = properties.withLock({ $0[p] }) { return known }
        let set: RegexScalarSet
        switch p {
        case .any: set = .all
        case .categories(let cs):
            set = RegexScalarSet(categoryRuns.compactMap { cs.contains($0.category) ? $0.range : nil })
        default: set = RegexScalarSet(where: p.contains)
        }
        properties.withLock { $0[p] = set }
        return set
    }

    /// Every code point's general category, as runs (one scan serves every `\p{gc}`).
    private static let categoryRuns: [(range: ClosedRange<UInt32>, category: Unicode.GeneralCategory)] = {
        var runs: [(range: ClosedRange<UInt32>, category: Unicode.GeneralCategory)] = []
        var start: UInt32 = 0, current = Unicode.GeneralCategory.control  // U+0000's
        var v: UInt32 = 1
        while v <= maxScalar {
            let category = Unicode.Scalar(v)?.properties.generalCategory ?? .surrogate
            if category != current {
                runs.append((start...(v - 1), current))
                start = v
                current = category
            }
            v += 1
        }
        runs.append((start...maxScalar, current))
        return runs
    }()

    /// `RegexClass.caseInsensitive`: `set` and every scalar `(?i)` takes as one in it.
    static func caseClosure(_ set: RegexScalarSet) -> RegexScalarSet {
        var added: [ClosedRange<UInt32>] = []
        for members in RegexCase.classes.values where members.contains(where: { set.contains($0.value) }) {
            for m in members where !set.contains(m.value) { added.append(m.value...m.value) }
        }
        return added.isEmpty ? set : RegexScalarSet(set.ranges + added)
    }

    /// The scalars a literal `c` matches under `(?i)`: those with its `RegexCase.fold`.
    static func foldedLiteral(_ c: Unicode.Scalar) -> RegexScalarSet {
        RegexScalarSet(RegexCase.variants(c).map { $0.value...$0.value })
    }
}
