import CLibPQ
import Foundation

/// The rows of one statement, read by column type (`PQftype`) in the format
/// they came in. Owns the libpq result and frees it when released.
public final class PGResult {
    let handle: OpaquePointer
    public let rowCount: Int
    public let columnCount: Int
    /// Each column's type OID and whether it came in binary, read once: a fetch reads
    /// them for every value (two libpq calls each, a tenth of a 100k-row fetch).
    private let columnTypes: [UInt32]
    private let binaryColumns: [Bool]

    init(_ handle: OpaquePointer) {
        self.handle = handle
        rowCount = Int(PQntuples(handle))
        columnCount = Int(PQnfields(handle))
        columnTypes = (0..<Int32(columnCount)).map { PQftype(handle, $0) }
        binaryColumns = (0..<Int32(columnCount)).map { PQfformat(handle, $0) == PGFormat.binary.rawValue }
    }

    deinit { PQclear(handle) }

    public func columnName(_ column: Int) -> String { String(cString: PQfname(handle, Int32(column))) }

    /// Rows changed by an INSERT, UPDATE or DELETE (0 for other statements).
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    public func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(handle, Int32(row), Int32(column)) == 1 }

    /// The value as its column type says: integers, floats, numeric (as decimal),
    /// booleans, text (json and jsonb as their text), bytea, timestamptz (as a date), uuid.
    public func value(_ row: Int, _ column: Int) -> Value {
        if isNull(row, column) { return .null }
        let type = columnTypes[column]
        let length = Int(PQgetlength(handle, Int32(row), Int32(column)))
        let raw = UnsafeRawBufferPointer(start: PQgetvalue(handle, Int32(row), Int32(column)), count: length)
        if binaryColumns[column] {
            return PGValueDecoding.binary(raw, type: type)
        }
        return PGValueDecoding.text(String(decoding: raw, as: UTF8.self), type: type)
    }

    /// The value converted for an attribute of `type` (a text column read as a URI, a double as a float).
    public func value(_ row: Int, _ column: Int, as type: AttributeType) -> Value {
        let v = value(row, column)
        switch (type, v) {
        case (.uri, .string(let s)): return URL(string: s).map(Value.uri) ?? v
        case (.transformable, .string): return v
        case (.boolean, .integer(let i)): return .bool(i != 0)
        case (.decimal, .double(let d)): return .decimal(Decimal(d))
        case (.double, .integer(let i)), (.float, .integer(let i)): return .double(Double(i))
        default: return v
        }
    }

    public func int64(_ row: Int, _ column: Int) -> Int64? { value(row, column).integerValue }

    public func string(_ row: Int, _ column: Int) -> String? {
        if case .string(let s) = value(row, column) { return s }
        return nil
    }

    /// Every row as values.
    public var rows: [[Value]] {
        (0..<rowCount).map { r in (0..<columnCount).map { value(r, $0) } }
    }
}
