import Foundation

/// The type of an attribute's values, matching Core Data's attribute types.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
    case string
    case integer16
    case integer32
    case integer64
    case double
    case float
    case decimal
    case boolean
    case date
    case binary
    case uuid
    case uri
    /// A JSON-coded value stored as text.
    case transformable
    /// Xcode's "Undefined" type; only valid on transient attributes.
    case undefined
    /// A group of named elements (Core Data's composite attribute): its elements are
    /// stored and queried as attributes of their own, named by dotted key paths
    /// (`magnitude.richter`). Only declarations carry it; resolved entities see the elements.
    case composite

    /// True for the integer types (whose values are `Value.integer`).
    public var isInteger: Bool {
        self == .integer16 || self == .integer32 || self == .integer64
    }

    /// True for types that compare numerically.
    public var isNumeric: Bool {
        isInteger || self == .double || self == .float || self == .decimal
    }

    /// The inclusive value range an integer type can hold.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: return Int64(Int16.min)...Int64(Int16.max)
        case .integer32: return Int64(Int32.min)...Int64(Int32.max)
        case .integer64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// The SQLite column type used by the native store layout.
    public var sqlType: String {
        switch self {
        case .string, .uri, .transformable, .decimal: return "TEXT"
        case .integer16, .integer32, .integer64, .boolean: return "INTEGER"
        case .double, .float, .date: return "REAL"
        case .binary, .uuid: return "BLOB"
        case .undefined, .composite: return ""
        }
    }
}
