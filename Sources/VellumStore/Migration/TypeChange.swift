import Foundation

/// How an attribute's stored values follow a change of its type.
enum TypeChange: Equatable {
    /// Same storage and meaning: the column is copied as is.
    case identity
    /// Every old value has a new one: converted row by row (`convert`).
    case widening
    /// Only some old values fit: `misfitSQL` counts the rows that do not; those that fit are converted.
    case narrowing
    /// No value-preserving rule: the reason, for the plan.
    case refused(String)

    static func of(_ from: AttributeType, _ to: AttributeType) -> TypeChange {
        if from == to { return .identity }
        switch (from, to) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64), (.float, .double), (.boolean, .integer16),
             (.boolean, .integer32), (.boolean, .integer64):
            return .identity
        case (.integer16, .double), (.integer32, .double), (.integer64, .double), (.integer16, .float), (.integer32, .float),
             (.integer16, .decimal), (.integer32, .decimal), (.integer64, .decimal):
            return .widening
        case (.integer64, .integer32), (.integer64, .integer16), (.integer32, .integer16), (.double, .float),
             (.double, .integer16), (.double, .integer32), (.double, .integer64), (.float, .integer16), (.float, .integer32),
             (.float, .integer64), (.integer16, .boolean), (.integer32, .boolean), (.integer64, .boolean), (.integer64, .float):
            return .narrowing
        case (_, .string) where isScalar(from):
            return .widening
        default:
            return .refused("\(from.rawValue) → \(to.rawValue) is not a lossless conversion (a parse or computation: use a custom stage)")
        }
    }

    private static func isScalar(_ t: AttributeType) -> Bool {
        t.isNumeric || [.boolean, .date, .uuid, .uri].contains(t)
    }

    /// SQL true for a stored value of `column` that does not fit `to` (narrowing only).
    /// On a server (`onServer`) a fraction is found with `trunc`: PostgreSQL's CAST of a
    /// value out of the integer range fails instead of giving a misfit.
    static func misfitSQL(_ column: String, to: AttributeType, onServer: Bool = false) -> String {
        let c = quoteIdentifier(column)
        switch to {
        case .integer16, .integer32, .integer64:
            let r = to.integerRange!
            let fraction = onServer ? "\(c) <> trunc(\(c))" : "\(c) <> CAST(\(c) AS INTEGER)"
            return "(\(c) IS NOT NULL AND (\(fraction) OR \(c) < \(r.lowerBound) OR \(c) > \(r.upperBound)))"
        case .boolean: return "(\(c) IS NOT NULL AND \(c) NOT IN (0, 1))"
        case .float: return "(\(c) IS NOT NULL AND abs(\(c)) > \(Double(Float.greatestFiniteMagnitude)))"
        default: return "0"
        }
    }

    /// The new value for an old one (nil: it does not fit; never for widening).
    static func convert(_ v: Value, to: AttributeType) -> Value? {
        if case .null = v { return .null }
        if to == .string {
            switch v {
            case .integer(let i): return .string(String(i))
            case .double(let d): return .string(d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d))
            case .decimal(let d): return .string("\(d)")
            case .bool(let b): return .string(b ? "true" : "false")
            case .date(let d): return .string(Value.iso8601(d))
            case .uuid(let u): return .string(u.uuidString)
            case .uri(let u): return .string(u.absoluteString)
            case .string: return v
            default: return nil
            }
        }
        switch (to, v) {
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            guard d == d.rounded(), let i = Int64(exactly: d) else { return nil }
            return try? Value.integer(i).coerced(to: to)
        case (.boolean, .integer(let i)): return i == 0 || i == 1 ? .bool(i == 1) : nil
        case (.float, .integer(let i)): return .double(Double(i))
        default: return try? v.coerced(to: to)
        }
    }
}
