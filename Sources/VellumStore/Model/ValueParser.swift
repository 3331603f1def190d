import Foundation

/// Turns what the user typed into a `Value` for an attribute, or a reason
/// it cannot be stored. Pure, so the editor can keep the text and show why.
/// This is input syntax only: whether the value may be stored is `ValueRules`'.
public enum ValueParser {
    public static func parse(_ input: String, for attribute: AttributeDescription, now: Date = Date()) -> Result<Value, ValueParseError> {
        let text = input.trimmingCharacters(in: .whitespaces)
        if text.isEmpty && attribute.type != .string { return noValue(for: attribute) }
        let value: Value
        switch attribute.type {
        case .string:
            // Empty means no value: nil where that is allowed, never a silent "".
            if input.isEmpty { return noValue(for: attribute) }
            value = .string(input)
        case .integer16, .integer32, .integer64:
            guard let i = Int64(text) else { return .failure(.init("'\(text)' is not an integer")) }
            value = .integer(i)
        case .double, .float:
            guard let d = Double(text), d.isFinite else { return .failure(.init("'\(text)' is not a number")) }
            value = .double(d)
        case .decimal:
            guard text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }), let d = Decimal(string: text) else {
                return .failure(.init("'\(text)' is not a decimal"))
            }
            value = .decimal(d)
        case .boolean:
            switch text.lowercased() {
            case "true", "yes", "1", "y": value = .bool(true)
            case "false", "no", "0", "n": value = .bool(false)
            default: return .failure(.init("'\(text)' is not true or false"))
            }
        case .date:
            switch text.lowercased() {
            case "now": value = .date(now)
            case "today":
                var cal = Calendar(identifier: .gregorian)
                cal.timeZone = TimeZone(identifier: "UTC")!
                value = .date(cal.startOfDay(for: now))
            default:
                do { value = .date(try ISODate.parse(text)) } catch {
                    return .failure(.init(error.description + ", now or today"))
                }
            }
        case .uuid:
            guard let u = UUID(uuidString: text) else { return .failure(.init("'\(text)' is not a UUID")) }
            value = .uuid(u)
        case .uri:
            guard let u = URL(string: text), u.scheme != nil else { return .failure(.init("'\(text)' is not a URI with a scheme")) }
            value = .uri(u)
        case .binary, .transformable, .undefined, .composite:
            return .failure(.init("\(attribute.type.rawValue) attributes cannot be entered as text"))
        }
        if let reason = ValueRules.violation(of: value, for: attribute) { return .failure(.init(reason)) }
        return .success(value)
    }

    /// Empty text: no value, where the rules allow none.
    private static func noValue(for attribute: AttributeDescription) -> Result<Value, ValueParseError> {
        guard let reason = ValueRules.violation(of: .null, for: attribute) else { return .success(.null) }
        return .failure(.init("\(attribute.name) \(reason)"))
    }

    /// Says how `input` will be stored when that is not the text typed: a decimal
    /// keeps its value, not its digits (`12.50` is stored as `12.5`).
    public static func storedFormNote(_ input: String, _ value: Value) -> String? {
        guard case .decimal = value else { return nil }
        let typed = input.trimmingCharacters(in: .whitespaces), stored = value.description
        return typed == stored ? nil : "'\(typed)' is stored as \(stored)"
    }

    /// The text the editor starts with for a current value.
    public static func editText(_ value: Value) -> String {
        value.isNull ? "" : value.description
    }
}

public struct ValueParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
