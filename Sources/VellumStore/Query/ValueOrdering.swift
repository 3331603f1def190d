import Foundation

/// Compares `Value`s the way SQLite compares their stored forms, so in-memory
/// evaluation and sorting agree with SQL: numbers (integers, doubles, decimals,
/// booleans) numerically with exact integer/real comparison, dates as Unix
/// seconds, strings by UTF-8 bytes, binary and UUIDs by bytes.
enum ValueOrdering {
    enum Number {
        case int(Int64), real(Double)
        var double: Double {
            switch self {
            case .int(let i): return Double(i)
            case .real(let d): return d
            }
        }
    }

    /// A decimal as SQLite's `CAST(text AS REAL)` reads it.
    static func decimalDouble(_ d: Decimal) -> Double {
        Double("\(d)") ?? NSDecimalNumber(decimal: d).doubleValue
    }

    static func number(_ v: Value) -> Number? {
        switch v {
        case .integer(let i): return .int(i)
        case .bool(let b): return .int(b ? 1 : 0)
        case .double(let d): return .real(d)
        case .decimal(let d): return .real(decimalDouble(d))
        case .date(let d): return .real(d.timeIntervalSince1970)
        default: return nil
        }
    }

    /// SQLite's exact comparison of an integer with a real.
    static func compare(_ i: Int64, _ r: Double) -> Int {
        if r.isNaN { return 1 }
        if r < -9223372036854775808.0 { return 1 }
        if r >= 9223372036854775808.0 { return -1 }
        let t = Int64(r.rounded(.down))
        if i < t { return -1 }
        if i > t { return 1 }
        let f = r - Double(t)
        return f > 0 ? -1 : 0
    }

    static func compare(_ a: Number, _ b: Number) -> Int {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.real(let x), .real(let y)): return x < y ? -1 : (x > y ? 1 : 0)
        case (.int(let x), .real(let y)): return compare(x, y)
        case (.real(let x), .int(let y)): return -compare(y, x)
        }
    }

    static func bytes(_ v: Value) -> Data? {
        switch v {
        case .data(let d): return d
        case .uuid(let u): return withUnsafeBytes(of: u.uuid) { Data($0) }
        default: return nil
        }
    }

    static func text(_ v: Value) -> String? {
        switch v {
        case .string(let s): return s
        case .uri(let u): return u.absoluteString
        default: return nil
        }
    }

    /// SQLite's storage-class rank: NULL < numbers < text < blobs.
    static func rank(_ v: Value) -> Int {
        switch v {
        case .null: return 0
        case .integer, .bool, .double, .decimal, .date: return 1
        case .string, .uri: return 2
        case .data, .uuid: return 3
        }
    }

    /// A total order over values (NULL first), as SQLite's BINARY collation orders them.
    static func compare(_ a: Value, _ b: Value) -> Int {
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch ra {
        case 0: return 0
        case 1: return compare(number(a)!, number(b)!)
        case 2: return Int(TextFolding.compareBinary(text(a)!, text(b)!))
        default:
            let x = bytes(a)!, y = bytes(b)!
            for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
            return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
        }
    }

    /// Compares strings with a sort descriptor's comparison, others as `compare`.
    static func compare(_ a: Value, _ b: Value, comparison: QuerySortDescriptor.Comparison) -> Int {
        if comparison != .binary, case .string(let x) = a, case .string(let y) = b {
            return Int(TextFolding.compareCollated(x, y, localized: comparison == .localizedStandard))
        }
        return compare(a, b)
    }
}
