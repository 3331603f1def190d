import Foundation
import VellumStore

/// Seeded random attributes with rules, and values for them that lean on the
/// edges where copies of a rule used to differ.
enum RandomValues {
    static let types: [AttributeType] = [.string, .string, .integer16, .integer64, .double, .decimal, .date, .date,
                                         .boolean, .binary, .transformable, .transformable]
    static let patterns = ["[A-Z]{3}-[0-9]+", "a*", ".*", "[a-z ]+", "x|y"]
    /// 1970-01-01 and 2001-01-01 as seconds since 1970: the two epochs.
    static let epochs: [Double] = [0, 978_307_200]

    static func pick<T>(_ options: [T], _ rng: inout SplitMix64) -> T { options[Int(rng.next() % UInt64(options.count))] }
    static func chance(_ oneIn: UInt64, _ rng: inout SplitMix64) -> Bool { rng.next() % oneIn == 0 }

    static func attribute(using rng: inout SplitMix64) -> AttributeDescription {
        let type = pick(types, &rng)
        var a = AttributeDescription(name: "v", type: type, isOptional: !chance(3, &rng))
        let bounds: [Double]
        switch type {
        case .string, .binary: bounds = [0, 1, 2, 3, 5, 40]
        case .integer16, .integer64, .decimal: bounds = [-5, 0, 1, 5, 100, 32767]
        case .double: bounds = [-1.5, 0, 0.25, 1, 5, 1e300]
        case .date: bounds = epochs + [-1, 1, 978_307_199, 978_307_201, 1_700_000_000]
        default: bounds = []
        }
        if !bounds.isEmpty {
            var lo = chance(2, &rng) ? pick(bounds, &rng) : nil
            var hi = chance(2, &rng) ? pick(bounds, &rng) : nil
            if let l = lo, let h = hi, l > h { (lo, hi) = (h, l) }
            a.minValue = lo
            a.maxValue = hi
        }
        if type == .string && chance(2, &rng) { a.regex = pick(patterns, &rng) }
        return a
    }

    static func value(for a: AttributeDescription, using rng: inout SplitMix64) -> Value {
        if chance(10, &rng) { return .null }
        // Half the time a value at or next to a bound.
        let edges = [a.minValue, a.maxValue].compactMap { $0 }
        switch a.type {
        case .string: return .string(string(near: edges, &rng))
        case .integer16, .integer64:
            let near = edges.flatMap { [Int64($0) - 1, Int64($0), Int64($0) + 1] }
            return .integer(pick(near + [0, -1, 32767, Int64.random(in: -40_000...40_000, using: &rng)], &rng))
        case .double:
            let near = edges.flatMap { [$0.nextDown, $0, $0.nextUp] }
            return .double(pick(near + [.nan, .infinity, -.infinity, 0, -0.0, 1e308, Double.random(in: -10...10, using: &rng)], &rng))
        case .decimal:
            let near = edges.flatMap { [$0 - 0.01, $0, $0 + 0.01] }
            let d = pick(near + [Double(Int.random(in: -10_000...10_000, using: &rng)) / 100], &rng)
            return .decimal(Decimal(string: String(format: "%.2f", d))!)
        case .date:
            let centres = edges + epochs
            let offsets: [Double] = [0, -1, 1, -0.001, 0.5, -86_400 * 366, Double.random(in: -1e9...1e9, using: &rng).rounded()]
            return .date(Date(timeIntervalSince1970: pick(centres, &rng) + pick(offsets, &rng)))
        case .boolean: return .bool(chance(2, &rng))
        case .binary:
            let lengths = edges.map { Int($0) } + [0, 1, 2, 4, 41]
            let n = max(0, pick(lengths, &rng) + pick([-1, 0, 1], &rng))
            return .data(Data((0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) }))
        case .transformable:
            if chance(8, &rng) { return .data(Data(pick([[0x22, 0xC3, 0x28, 0x22], [0x5B, 0x31, 0x5D], [0xFF]], &rng))) }
            return .string(pick(json, &rng))
        default: return .null
        }
    }

    static let json = [
        "{}", "[1, 2]", #""x""#, "null", " null ", "true", "-0.5e3", #"{"a": [null, {"b": "\u00e9"}]}"#,
        #""\ud83d\ude00""#, #""\ud800""#, #""\udc00x""#, #"["\ud800\ud800"]"#, "{", "[1,]", "nul", "01", "1.", #""a"#,
        "\"tab\there\"", "[1] [2]", "'x'", "NaN", #"{"k" 1}"#,
    ]

    static func string(near edges: [Double], _ rng: inout SplitMix64) -> String {
        let lengths = edges.map { Int($0) }.flatMap { [$0 - 1, $0, $0 + 1] }.filter { $0 >= 0 }
        let letters = Array("abcxyzABC -1é😀")
        let made = String((0..<pick(lengths + [0, 3, 6], &rng)).map { _ in pick(letters, &rng) })
        return pick([made, made, "", " ", "ABC-12", "ABC-12\n", "\nABC-12", "ABC-", "aaa", "aaa\n", "x", "y\n",
                     "e\u{301}", String(repeating: "a", count: 10_000), "hello world"], &rng)
    }
}
