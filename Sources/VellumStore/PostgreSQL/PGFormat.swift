/// How parameters travel to the server and results come back: PostgreSQL's
/// binary wire format (no number parsing or printing) or its text format.
public enum PGFormat: Int32, Sendable {
    case text = 0
    case binary = 1
}

/// The PostgreSQL type OIDs Vellum sends and reads (`pg_type.oid`, fixed for built-in types).
enum PGType {
    static let bool: UInt32 = 16
    static let bytea: UInt32 = 17
    static let name: UInt32 = 19
    static let int8: UInt32 = 20
    static let int2: UInt32 = 21
    static let int4: UInt32 = 23
    static let text: UInt32 = 25
    static let oid: UInt32 = 26
    static let json: UInt32 = 114
    static let float4: UInt32 = 700
    static let float8: UInt32 = 701
    static let bpchar: UInt32 = 1042
    static let varchar: UInt32 = 1043
    static let timestamp: UInt32 = 1114
    static let timestamptz: UInt32 = 1184
    static let numeric: UInt32 = 1700
    static let uuid: UInt32 = 2950
    static let jsonb: UInt32 = 3802
}
