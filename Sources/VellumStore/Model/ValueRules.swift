import Foundation

/// The one rule core for values: whether a value may be stored in an attribute,
/// and if not, why. `save()` (`Validator`), the browser's field editor and the
/// CLI's `insert`/`update` (both through `ValueParser`) all ask it, so no two
/// of them can disagree. Text → value parsing stays with each surface (it is
/// input syntax); acceptability and its message are decided only here.
///
/// The rules: the type (`Value.coerced(to:)`, which checks transformable JSON
/// with `JSONSyntax`), required, min/max — a value for numbers, seconds since
/// 1970 for dates (the store's epoch), a length in characters for strings and
/// in bytes for binary — and the regex, which must match the whole string.
public enum ValueRules {
    /// Why `value` cannot be stored in `attribute`, or nil when it can.
    public static func violation(of value: Value, for attribute: AttributeDescription) -> String? {
        let coerced: Value
        do { coerced = try value.coerced(to: attribute.type) } catch { return error.description }
        return ruleViolation(ofCoerced: coerced, for: attribute)
    }

    /// The same for a value already coerced to the attribute's type (an object's
    /// values are coerced when set, so a save checks only the rules).
    public static func ruleViolation(ofCoerced value: Value, for a: AttributeDescription) -> String? {
        if value.isNull { return a.isOptional ? nil : "is required" }
        if a.minValue == nil && a.maxValue == nil && a.regex == nil { return nil }
        if let reason = boundViolation(value, a) { return reason }
        if let pattern = a.regex, case .string(let s) = value, !TextFolding.matchesRegex(s, pattern: pattern) {
            return "does not match the pattern \(pattern)"
        }
        return nil
    }

    private static func boundViolation(_ value: Value, _ a: AttributeDescription) -> String? {
        switch value {
        case .string(let s) where a.type == .string: return lengthViolation(s.count, "character", a)
        case .data(let d): return lengthViolation(d.count, "byte", a)
        case .string, .bool, .uuid, .uri, .null: return nil
        case .integer, .double, .decimal, .date:
            guard let m = value.doubleValue else { return nil }
            if let min = a.minValue, m < min { return "value must be at least \(bound(min, a.type)), not \(value)" }
            if let max = a.maxValue, m > max { return "value must be at most \(bound(max, a.type)), not \(value)" }
            return nil
        }
    }

    private static func lengthViolation(_ count: Int, _ unit: String, _ a: AttributeDescription) -> String? {
        func amount(_ n: Double) -> String { "\(bound(n, .integer64)) \(unit)\(n == 1 ? "" : "s")" }
        if let min = a.minValue, Double(count) < min { return "must be at least \(amount(min)), not \(count)" }
        if let max = a.maxValue, Double(count) > max { return "must be at most \(amount(max)), not \(count)" }
        return nil
    }

    /// A bound as the user wrote it: a date in ISO 8601, a whole number without ".0".
    private static func bound(_ d: Double, _ type: AttributeType) -> String {
        if type == .date { return Value.iso8601(Date(timeIntervalSince1970: d)) }
        return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
    }
}
