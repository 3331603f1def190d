import Foundation

/// Turns one result field, in binary or text format, into a `Value` by its type OID.
/// Types Vellum does not know come back as text (text format) or bytes (binary).
enum PGValueDecoding {
    static func binary(_ raw: UnsafeRawBufferPointer, type: UInt32) -> Value {
        // Network byte order; a field of the type's own size is loaded at once.
        func integer(_ n: Int) -> Int64 {
            switch (n, raw.count) {
            case (8, 8): return Int64(bigEndian: raw.loadUnaligned(as: Int64.self))
            case (4, 4): return Int64(Int32(bigEndian: raw.loadUnaligned(as: Int32.self)))
            case (2, 2): return Int64(Int16(bigEndian: raw.loadUnaligned(as: Int16.self)))
            default:
                var v: Int64 = raw.count > 0 && raw[0] & 0x80 != 0 ? -1 : 0
                for i in 0..<min(n, raw.count) { v = v << 8 | Int64(raw[i]) }
                return v
            }
        }
        func unsigned() -> UInt64 {
            switch raw.count {
            case 8: return UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self))
            case 4: return UInt64(UInt32(bigEndian: raw.loadUnaligned(as: UInt32.self)))
            default: return raw.reduce(0) { $0 << 8 | UInt64($1) }
            }
        }
        switch type {
        case PGType.bool: return .bool(raw.first == 1)
        case PGType.int2: return .integer(integer(2))
        case PGType.int4: return .integer(integer(4))
        case PGType.int8: return .integer(integer(8))
        case PGType.oid: return .integer(Int64(unsigned()))
        case PGType.float4: return .double(Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned()))))
        case PGType.float8: return .double(Double(bitPattern: unsigned()))
        case PGType.numeric: return numeric(raw)
        case PGType.timestamptz, PGType.timestamp: return .date(PGTimestamp.date(microseconds: integer(8)))
        case PGType.uuid where raw.count == 16:
            let b = Array(raw)
            return .uuid(UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])))
        // jsonb's binary form is a version byte (1) and the JSON text.
        case PGType.jsonb: return .string(String(decoding: raw.dropFirst(), as: UTF8.self))
        case PGType.text, PGType.varchar, PGType.bpchar, PGType.name, PGType.json:
            return .string(String(decoding: raw, as: UTF8.self))
        default: return .data(Data(raw))
        }
    }

    static func text(_ s: String, type: UInt32) -> Value {
        switch type {
        case PGType.bool: return .bool(s == "t")
        case PGType.int2, PGType.int4, PGType.int8, PGType.oid: return Int64(s).map(Value.integer) ?? .string(s)
        case PGType.float4, PGType.float8: return Double(s).map(Value.double) ?? .string(s)
        case PGType.numeric:
            if s == "NaN" { return .decimal(.nan) }
            if let d = Double(s), d.isInfinite { return .double(d) }
            return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")).map(Value.decimal) ?? .string(s)
        case PGType.timestamptz: return PGTimestamp.parse(s).map(Value.date) ?? .string(s)
        case PGType.uuid: return UUID(uuidString: s).map(Value.uuid) ?? .string(s)
        case PGType.bytea: return hexBytes(s).map(Value.data) ?? .string(s)
        default: return .string(s)
        }
    }

    /// `\x0a1b…` (PostgreSQL's default `bytea_output`).
    private static func hexBytes(_ s: String) -> Data? {
        let u = Array(s.utf8)
        guard u.count >= 2, u[0] == UInt8(ascii: "\\"), u[1] == UInt8(ascii: "x"), u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out = Data(capacity: (u.count - 2) / 2)
        var i = 2
        while i < u.count {
            guard let h = nibble(u[i]), let l = nibble(u[i + 1]) else { return nil }
            out.append(h << 4 | l)
            i += 2
        }
        return out
    }

    /// numeric's binary form: digit count, weight (of the first base-10000 digit),
    /// sign, display scale, then the base-10000 digits.
    private static func numeric(_ raw: UnsafeRawBufferPointer) -> Value {
        func int16(_ at: Int) -> Int { Int(Int16(bitPattern: UInt16(raw[at]) << 8 | UInt16(raw[at + 1]))) }
        guard raw.count >= 8 else { return .null }
        let count = int16(0), weight = int16(2), sign = UInt16(raw[4]) << 8 | UInt16(raw[5]), scale = int16(6)
        switch sign {
        case 0xC000: return .decimal(.nan)
        case 0xD000: return .double(.infinity)
        case 0xF000: return .double(-.infinity)
        default: break
        }
        guard raw.count >= 8 + 2 * count else { return .null }
        func digit(_ i: Int) -> Int { i >= 0 && i < count ? int16(8 + 2 * i) : 0 }
        func four(_ n: Int) -> String { let s = String(n); return String(repeating: "0", count: 4 - s.count) + s }
        var text = weight < 0 ? "0" : String(digit(0))
        if weight > 0 { for i in 1...weight { text += four(digit(i)) } }
        if scale > 0 {
            var fraction = ""
            var i = weight + 1
            while fraction.count < scale { fraction += four(digit(i)); i += 1 }
            text += "." + fraction.prefix(scale)
        }
        let decimal = Decimal(string: (sign == 0x4000 ? "-" : "") + text, locale: Locale(identifier: "en_US_POSIX"))
        return decimal.map(Value.decimal) ?? .null
    }
}
