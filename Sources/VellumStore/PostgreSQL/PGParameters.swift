import Foundation

/// Values encoded for `PQexecParams`: a type OID, a format and the bytes of
/// each parameter, kept in one buffer (text parameters NUL-terminated, as libpq reads them).
struct PGParameters {
    var types: [UInt32] = []
    var formats: [Int32] = []
    var lengths: [Int32] = []
    /// Offsets into `bytes`; nil for SQL NULL.
    var offsets: [Int?] = []
    var bytes: [UInt8] = []

    /// Text (and URIs) sent without a type, so the server gives them the type of the
    /// column they go into: a store's save writes a transformable's JSON text into `jsonb`.
    private var untypedText = false

    init(_ values: [Value], format: PGFormat, untypedText: Bool = false) throws(StoreError) {
        self.untypedText = untypedText
        for v in values { try append(v, format: format) }
    }

    private mutating func append(_ v: Value, format: PGFormat) throws(StoreError) {
        let binary = format == .binary
        switch v {
        case .null: add(type: 0, format: .text, nil)
        case .integer(let i): binary ? add(type: PGType.int8, format: .binary, bigEndian(UInt64(bitPattern: i))) : addText(PGType.int8, String(i))
        case .double(let d): binary ? add(type: PGType.float8, format: .binary, bigEndian(d.bitPattern)) : addText(PGType.float8, Self.text(d))
        // numeric's binary form is base-10000 digits; its text is exact and simple.
        case .decimal(let d): addText(PGType.numeric, d.isNaN ? "NaN" : "\(d)")
        case .string(let s): try addString(PGType.text, s, binary: binary)
        case .uri(let u): try addString(PGType.text, u.absoluteString, binary: binary)
        case .bool(let b): binary ? add(type: PGType.bool, format: .binary, [b ? 1 : 0]) : addText(PGType.bool, b ? "t" : "f")
        case .date(let d):
            binary ? add(type: PGType.timestamptz, format: .binary, bigEndian(UInt64(bitPattern: PGTimestamp.microseconds(d))))
                : addText(PGType.timestamptz, PGTimestamp.text(d))
        case .data(let d): binary ? add(type: PGType.bytea, format: .binary, Array(d)) : addText(PGType.bytea, "\\x" + d.map { Self.hex($0) }.joined())
        case .uuid(let u):
            binary ? add(type: PGType.uuid, format: .binary, withUnsafeBytes(of: u.uuid) { Array($0) }) : addText(PGType.uuid, u.uuidString)
        }
    }

    private mutating func add(type: UInt32, format: PGFormat, _ data: [UInt8]?) {
        types.append(type)
        formats.append(format.rawValue)
        lengths.append(Int32(data?.count ?? 0))
        offsets.append(data == nil ? nil : bytes.count)
        if let data { bytes.append(contentsOf: data) }
    }

    private mutating func addText(_ type: UInt32, _ text: String) {
        add(type: type, format: .text, Array(text.utf8) + [0])
    }

    /// PostgreSQL text cannot hold NUL: refused here, since libpq would cut a text parameter there silently.
    private mutating func addString(_ type: UInt32, _ s: String, binary: Bool) throws(StoreError) {
        if s.utf8.contains(0) {
            throw .postgresql(PostgreSQLFailure(sqlState: "22021", message: "a text value contains a NUL character, which PostgreSQL text cannot hold"))
        }
        if untypedText { return addText(0, s) }
        binary ? add(type: type, format: .binary, Array(s.utf8)) : addText(type, s)
    }

    private func bigEndian(_ n: UInt64) -> [UInt8] { withUnsafeBytes(of: n.bigEndian) { Array($0) } }

    static func text(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return "\(d)"
    }

    static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(b >> 4)], digits[Int(b & 15)]])
    }

    /// Calls `body` with the C arrays `PQexecParams` takes.
    func withArrays<R>(_ body: (UnsafePointer<UInt32>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R) -> R {
        // One spare byte, so that an empty value (at the end) still gets a valid pointer.
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            let pointers = offsets.map { $0.map { base.advanced(by: $0).assumingMemoryBound(to: CChar.self) } }
            return types.withUnsafeBufferPointer { t in
                pointers.withUnsafeBufferPointer { p in
                    lengths.withUnsafeBufferPointer { l in
                        formats.withUnsafeBufferPointer { f in body(t.baseAddress, p.baseAddress, l.baseAddress, f.baseAddress) }
                    }
                }
            }
        }
    }
}
