import Foundation

/// One object of a binary property list, as read by `BinaryPlistReader`. Not `indirect`:
/// a value lives inline (the containers hold their own storage), so reading a model cache
/// does not allocate a box per object.
public enum PlistValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A 128-bit integer whose value does not fit `Int64` (bplist writes unsigned 64-bit
    /// values this way).
    case unsignedInteger(UInt64)
    case real(Double)
    /// Seconds since 2001-01-01 00:00:00 UTC, as stored.
    case date(Double)
    case data(Data)
    case string(String)
    /// A keyed archiver's object reference (`CF$UID`).
    case uid(UInt64)
    case array([PlistValue])
    case set([PlistValue])
    case dictionary(PlistDictionary)

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var dictionary: PlistDictionary? { if case .dictionary(let d) = self { return d }; return nil }
    public var data: Data? { if case .data(let d) = self { return d }; return nil }
    public var bool: Bool? { if case .bool(let b) = self { return b }; return nil }

    /// The elements of an array or a set.
    public var elements: [PlistValue]? {
        switch self {
        case .array(let a), .set(let a): return a
        default: return nil
        }
    }

    /// An integer (or a whole real, or a boolean as 0/1) as `Int64`.
    public var integer: Int64? {
        switch self {
        case .integer(let i): return i
        case .bool(let b): return b ? 1 : 0
        case .real(let d) where d == d.rounded() && abs(d) < 9e18: return Int64(d)
        default: return nil
        }
    }
}
