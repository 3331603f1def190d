import Foundation

/// A single attribute value. Values are `Sendable` and cross contexts freely;
/// managed objects do not.
public enum Value: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
    case string(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case uri(URL)

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .integer: return "integer"
        case .double: return "double"
        case .decimal: return "decimal"
        case .string: return "string"
        case .bool: return "boolean"
        case .date: return "date"
        case .data: return "binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var integerValue: Int64? {
        switch self {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }
    /// The value as a Double when it is numeric (integers, doubles, decimals, booleans, dates as Unix time).
    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        case .bool(let b): return b ? 1 : 0
        case .date(let d): return d.timeIntervalSince1970
        default: return nil
        }
    }
    public var boolValue: Bool? {
        switch self {
        case .bool(let b): return b
        case .integer(let i): return i != 0
        default: return nil
        }
    }
    public var dateValue: Date? { if case .date(let d) = self { return d } else { return nil } }
    public var dataValue: Data? { if case .data(let d) = self { return d } else { return nil } }
}

extension Value: CustomStringConvertible {
    /// A human-readable rendering (dates in ISO 8601, binary as size + hex preview).
    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .double(let d): return Value.formatDouble(d)
        case .decimal(let d): return "\(d)"
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        case .date(let d): return Value.iso8601(d)
        case .data(let d):
            let preview = d.prefix(8).map { String(format: "%02x", $0) }.joined()
            return "<\(d.count) bytes\(d.isEmpty ? "" : " " + preview)\(d.count > 8 ? "…" : "")>"
        case .uuid(let u): return u.uuidString
        case .uri(let u): return u.absoluteString
        }
    }

    static func formatDouble(_ d: Double) -> String {
        if d.isFinite, d == d.rounded(), abs(d) < 1e15 { return String(format: "%.1f", d) }
        return "\(d)"
    }

    /// ISO 8601 in UTC, with fraction digits only as many as the value needs (`ISODate.text`).
    public static func iso8601(_ date: Date) -> String { ISODate.text(date) }

    /// The date `text` stands for under the one strict parser (`ISODate.parse`), or nil.
    /// nil when `text` is not a date; `ISODate.parse` says why, for callers that report it.
    public static func parseISO8601(_ text: String) -> Date? { try? ISODate.parse(text) }
}
