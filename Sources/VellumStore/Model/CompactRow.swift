import Foundation

/// A row of attribute values in a compact byte form, decoded on access.
///
/// Held as `Value`s, a fetched row costs 24 bytes a value plus a heap string for
/// every text longer than 15 bytes (a 100,000-row fetch of ten attributes: 34 MB);
/// its bytes here are what the values need (about 9 MB), and a text becomes a
/// `String` only when it is read.
///
/// Layout: one UInt16 checkpoint per four values after the first four (the byte
/// offset of value 4k from the row's start), then each value as a tag byte and
/// its payload:
///
/// | tag | value | payload |
/// |---|---|---|
/// | 0 | null | – |
/// | 1, 2 | false, true | – |
/// | 3 | integer | zigzag varint (1–10 bytes) |
/// | 4 | double | 8 bytes |
/// | 5 | string | varint length, UTF-8 bytes |
/// | 6 | date | 8 bytes: seconds since the reference date |
/// | 7 | data | varint length, bytes |
/// | 8 | UUID | 16 bytes |
///
/// Decimals and URLs have no compact form: a row holding one stays in `Value`s.
/// Reading value `i` skips at most three values after its checkpoint: O(1); reading
/// every value of a row in order is O(width).
@usableFromInline
enum CompactRow {
    static let null: UInt8 = 0, falseTag: UInt8 = 1, trueTag: UInt8 = 2, integer: UInt8 = 3, double: UInt8 = 4
    static let string: UInt8 = 5, date: UInt8 = 6, data: UInt8 = 7, uuid: UInt8 = 8
    /// Values between checkpoints.
    static let stride = 4

    /// Bytes of checkpoints at the start of a row of `width` values.
    static func checkpointBytes(width: Int) -> Int { width > stride ? (width - 1) / stride * 2 : 0 }

    /// Value `index` of a row of `width` values at `row`.
    @usableFromInline
    static func value(at index: Int, of row: UnsafeRawPointer, width: Int) -> Value {
        var p = row + checkpointBytes(width: width)
        var i = 0
        if index >= stride {
            let k = index / stride
            p = row + Int(row.loadUnaligned(fromByteOffset: (k - 1) * 2, as: UInt16.self))
            i = k * stride
        }
        while i < index {
            p = skip(p)
            i += 1
        }
        return decode(p).value
    }

    /// Every value of a row of `width` values, in order.
    static func values(of row: UnsafeRawPointer, width: Int) -> [Value] {
        var p = row + checkpointBytes(width: width)
        return [Value](unsafeUninitializedCapacity: width) { buffer, count in
            for i in 0..<width {
                let (v, next) = decode(p)
                (buffer.baseAddress! + i).initialize(to: v)
                p = next
            }
            count = width
        }
    }

    // The switches below spell the tags as literals (see the table above): cases
    // naming constants compile to a chain of comparisons, literals to a jump table.

    /// The value at `p` and the address after it.
    @inline(__always)
    static func decode(_ p: UnsafeRawPointer) -> (value: Value, next: UnsafeRawPointer) {
        let body = p + 1
        switch p.load(as: UInt8.self) {
        case 1: return (.bool(false), body)
        case 2: return (.bool(true), body)
        case 3:
            let (u, next) = readVarint(body)
            return (.integer(Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))), next)
        case 4: return (.double(Double(bitPattern: body.loadUnaligned(as: UInt64.self))), body + 8)
        case 5:
            let (n, start) = readVarint(body)
            let count = Int(n)
            return (.string(String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)), start + count)
        case 6:
            return (.date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: body.loadUnaligned(as: UInt64.self)))), body + 8)
        case 7:
            let (n, start) = readVarint(body)
            let count = Int(n)
            return (.data(Data(bytes: start, count: count)), start + count)
        case 8: return (.uuid(UUID(uuid: body.loadUnaligned(as: uuid_t.self))), body + 16)
        default: return (.null, body)
        }
    }

    /// The address after the value at `p`, without decoding it.
    @inline(__always)
    static func skip(_ p: UnsafeRawPointer) -> UnsafeRawPointer {
        let body = p + 1
        switch p.load(as: UInt8.self) {
        case 3:
            var q = body
            while q.load(as: UInt8.self) & 0x80 != 0 { q += 1 }
            return q + 1
        case 4, 6: return body + 8
        case 5, 7:
            let (n, start) = readVarint(body)
            return start + Int(n)
        case 8: return body + 16
        default: return body
        }
    }

    @inline(__always)
    static func readVarint(_ p: UnsafeRawPointer) -> (UInt64, UnsafeRawPointer) {
        let first = p.load(as: UInt8.self)
        if first < 0x80 { return (UInt64(first), p + 1) }
        var result = UInt64(first & 0x7F), shift: UInt64 = 7, q = p + 1
        while true {
            let byte = q.load(as: UInt8.self)
            q += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return (result, q) }
            shift += 7
        }
    }
}

/// Builds one compact row at a time in a reusable buffer (see `CompactRow`). A row
/// is begun, given each value in attribute order, and then copied where it is kept;
/// a value without a compact form makes the row fail (`isValid` false).
///
/// Its fields skip the runtime exclusivity check (a fetch encodes a million values):
/// an encoder is used by one fetch on one queue, and no access spans another.
final class CompactRowEncoder {
    @exclusivity(unchecked) private var buffer: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes of the current row.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var index = 0
    @exclusivity(unchecked) private var width = 0
    /// False when the row cannot be compact: a decimal or URL, or a checkpoint past 64 KB.
    @exclusivity(unchecked) private(set) var isValid = true

    init() {
        capacity = 256
        buffer = .allocate(byteCount: capacity, alignment: 8)
    }

    deinit { buffer.deallocate() }

    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: count) }

    /// Starts a row; room for `width` values of fixed size is made here, once.
    func begin(width: Int) {
        self.width = width
        index = 0
        isValid = true
        count = CompactRow.checkpointBytes(width: width)
        reserve(count + width * Self.largestFixedValue)
    }

    /// Tag and payload of the largest value of fixed size (a UUID).
    static let largestFixedValue = 17

    /// Called before each value: records the checkpoint of every fourth.
    @inline(__always)
    private func next() {
        if index & (CompactRow.stride - 1) == 0 && index > 0 {
            if count > Int(UInt16.max) { isValid = false }
            buffer.storeBytes(of: UInt16(truncatingIfNeeded: count), toByteOffset: (index / CompactRow.stride - 1) * 2, as: UInt16.self)
        }
        index += 1
    }

    @inline(__always)
    private func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        var grown = capacity * 2
        while grown < needed { grown *= 2 }
        let fresh = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
        fresh.copyMemory(from: buffer, byteCount: count)
        buffer.deallocate()
        buffer = fresh
        capacity = grown
    }

    @inline(__always)
    private func tag(_ t: UInt8) {
        buffer.storeBytes(of: t, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    private func varint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: count, as: UInt8.self)
            count += 1
            v >>= 7
        }
        buffer.storeBytes(of: UInt8(v), toByteOffset: count, as: UInt8.self)
        count += 1
    }

    @inline(__always)
    private func word(_ bits: UInt64) {
        buffer.storeBytes(of: bits, toByteOffset: count, as: UInt64.self)
        count += 8
    }

    func appendNull() { next(); tag(CompactRow.null) }
    func appendBool(_ b: Bool) { next(); tag(b ? CompactRow.trueTag : CompactRow.falseTag) }
    func appendInteger(_ i: Int64) {
        next()
        tag(CompactRow.integer)
        varint(UInt64(bitPattern: (i << 1) ^ (i >> 63)))
    }
    func appendDouble(_ d: Double) { next(); tag(CompactRow.double); word(d.bitPattern) }
    func appendDate(_ d: Date) { next(); tag(CompactRow.date); word(d.timeIntervalSinceReferenceDate.bitPattern) }
    func appendText(_ bytes: UnsafeRawBufferPointer) { appendBytes(bytes, tag: CompactRow.string) }
    func appendData(_ bytes: UnsafeRawBufferPointer) { appendBytes(bytes, tag: CompactRow.data) }
    func appendUUID(_ u: UUID) {
        next()
        tag(CompactRow.uuid)
        withUnsafeBytes(of: u.uuid) { (buffer + count).copyMemory(from: $0.baseAddress!, byteCount: 16) }
        count += 16
    }

    private func appendBytes(_ bytes: UnsafeRawBufferPointer, tag t: UInt8) {
        next()
        // Keeps room for this value's bytes and the fixed room `begin` made for the rest.
        reserve(count + bytes.count + (width - index + 1) * Self.largestFixedValue)
        tag(t)
        varint(UInt64(bytes.count))
        if let base = bytes.baseAddress, bytes.count > 0 { (buffer + count).copyMemory(from: base, byteCount: bytes.count) }
        count += bytes.count
    }

    /// Any value; a decimal or URL makes the row invalid.
    func append(_ v: Value) {
        switch v {
        case .null: appendNull()
        case .bool(let b): appendBool(b)
        case .integer(let i): appendInteger(i)
        case .double(let d): appendDouble(d)
        case .date(let d): appendDate(d)
        case .string(var s): s.withUTF8 { appendText(UnsafeRawBufferPointer($0)) }
        case .data(let d): d.withUnsafeBytes { appendData($0) }
        case .uuid(let u): appendUUID(u)
        case .decimal, .uri: next(); tag(CompactRow.null); isValid = false
        }
    }
}
