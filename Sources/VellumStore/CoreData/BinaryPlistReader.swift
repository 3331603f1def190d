import Foundation

/// Reads a binary property list (`bplist00`): every object type, including keyed-archiver
/// UIDs, sets, dates, reals and 128-bit integers. Malformed input is refused with
/// `StoreError.malformedCoreData` naming the byte offset and the reason; it never traps.
public struct BinaryPlistReader {
    private let bytes: [UInt8]
    private let what: String
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let offsetTable: Int
    private let topObject: Int
    /// Objects decoded so far, by index (shared sub-trees are decoded once). Arrays, not
    /// hash tables: a model cache holds tens of thousands of objects.
    private var decoded: [PlistValue?]
    /// Objects being decoded: a reference back into this path is a cycle.
    private var inProgress: [Bool]
    private var depth = 0
    static let maxDepth = 64

    /// Decodes the whole property list. `what` names the data in error messages.
    public static func read(_ data: Data, what: String = "binary plist") throws(StoreError) -> PlistValue {
        var reader = try BinaryPlistReader(bytes: [UInt8](data), what: what)
        return try reader.readTop()
    }

    private init(bytes: [UInt8], what: String) throws(StoreError) {
        self.bytes = bytes
        self.what = what
        guard bytes.count >= 8 + 32, bytes[0..<8].elementsEqual(Array("bplist00".utf8)) else {
            throw .malformedCoreData(what: what, offset: 0, reason: bytes.count < 40 ? "too short for a binary plist (\(bytes.count) bytes)" : "no bplist00 header")
        }
        let trailer = bytes.count - 32
        offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        func u64(_ at: Int) -> UInt64 { bytes[at..<at + 8].reduce(0) { $0 << 8 | UInt64($1) } }
        let count = u64(trailer + 8), top = u64(trailer + 16), table = u64(trailer + 24)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw .malformedCoreData(what: what, offset: trailer + 6, reason: "offset size \(offsetSize) or reference size \(refSize) is not 1 to 8")
        }
        guard count > 0, count <= UInt64(bytes.count), top < count else {
            throw .malformedCoreData(what: what, offset: trailer + 8, reason: "object count \(count) or top object \(top) is out of range")
        }
        guard table >= 8, table + count * UInt64(offsetSize) <= UInt64(trailer) else {
            throw .malformedCoreData(what: what, offset: trailer + 24, reason: "offset table at \(table) does not fit before the trailer")
        }
        objectCount = Int(count)
        offsetTable = Int(table)
        topObject = Int(top)
        decoded = Array(repeating: nil, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
    }

    private mutating func readTop() throws(StoreError) -> PlistValue { try object(topObject) }

    private func fail(_ offset: Int, _ reason: String) -> StoreError {
        .malformedCoreData(what: what, offset: offset, reason: reason)
    }

    /// A big-endian unsigned integer of `size` bytes at `at`, bounds-checked.
    private func uint(at: Int, size: Int) throws(StoreError) -> UInt64 {
        guard at >= 0, size >= 0, at <= bytes.count - size else { throw fail(at, "\(size)-byte field runs past the end") }
        var v: UInt64 = 0
        for i in at..<at + size { v = v << 8 | UInt64(bytes[i]) }
        return v
    }

    private func offset(ofObject index: Int) throws(StoreError) -> Int {
        let v = try uint(at: offsetTable + index * offsetSize, size: offsetSize)
        guard v >= 8, v < UInt64(offsetTable) else { throw fail(offsetTable + index * offsetSize, "object \(index) has offset \(v), outside the object area") }
        return Int(v)
    }

    private mutating func object(_ index: Int) throws(StoreError) -> PlistValue {
        guard index >= 0, index < objectCount else { throw fail(offsetTable, "reference to object \(index) of \(objectCount)") }
        if let v = decoded[index] { return v }
        let at = try offset(ofObject: index)
        guard !inProgress[index] else { throw fail(at, "object \(index) contains itself") }
        // Deep nesting would exhaust the stack before any real plist gets near it.
        guard depth < Self.maxDepth else { throw fail(at, "containers nested deeper than \(Self.maxDepth)") }
        inProgress[index] = true
        depth += 1
        defer { inProgress[index] = false; depth -= 1 }
        let v = try parse(at: at)
        decoded[index] = v
        return v
    }

    /// The element count of a marker: its low nibble, or an integer object after it when 0xF.
    /// Returns the count and where the contents start.
    private func count(marker: UInt8, at: Int) throws(StoreError) -> (Int, Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, at + 1) }
        guard at + 1 < bytes.count, bytes[at + 1] & 0xF0 == 0x10 else { throw fail(at + 1, "extended count is not an integer") }
        let size = 1 << Int(bytes[at + 1] & 0x0F)
        guard size <= 8 else { throw fail(at + 1, "extended count of \(size) bytes") }
        let n = try uint(at: at + 2, size: size)
        guard n <= UInt64(bytes.count) else { throw fail(at + 1, "count \(n) is larger than the file") }
        return (Int(n), at + 2 + size)
    }

    private mutating func parse(at: Int) throws(StoreError) -> PlistValue {
        let marker = bytes[at]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw fail(at, String(format: "unknown marker 0x%02x", marker))
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            switch size {
            case 1, 2, 4: return .integer(Int64(try uint(at: at + 1, size: size)))
            case 8: return .integer(Int64(bitPattern: try uint(at: at + 1, size: 8)))
            case 16:
                let high = try uint(at: at + 1, size: 8), low = try uint(at: at + 9, size: 8)
                if high == 0 { return low <= UInt64(Int64.max) ? .integer(Int64(low)) : .unsignedInteger(low) }
                if high == UInt64.max, low > UInt64(Int64.max) { return .integer(Int64(bitPattern: low)) }
                throw fail(at, "128-bit integer does not fit 64 bits")
            default: throw fail(at, "integer of \(size) bytes")
            }
        case 0x2:
            switch marker & 0x0F {
            case 2: return .real(Double(Float(bitPattern: UInt32(try uint(at: at + 1, size: 4)))))
            case 3: return .real(Double(bitPattern: try uint(at: at + 1, size: 8)))
            default: throw fail(at, "real of \(1 << Int(marker & 0x0F)) bytes")
            }
        case 0x3:
            guard marker == 0x33 else { throw fail(at, String(format: "unknown marker 0x%02x", marker)) }
            return .date(Double(bitPattern: try uint(at: at + 1, size: 8)))
        case 0x4:
            let (n, start) = try count(marker: marker, at: at)
            return .data(Data(try slice(start, n)))
        case 0x5:
            let (n, start) = try count(marker: marker, at: at)
            let s = try slice(start, n)
            guard s.allSatisfy({ $0 < 0x80 }) else { throw fail(start, "ASCII string holds a byte above 127") }
            return .string(String(decoding: s, as: UTF8.self))
        case 0x6:
            let (n, start) = try count(marker: marker, at: at)
            let s = try slice(start, n * 2)
            var units: [UInt16] = []
            units.reserveCapacity(n)
            for i in stride(from: 0, to: s.count, by: 2) { units.append(UInt16(s[s.startIndex + i]) << 8 | UInt16(s[s.startIndex + i + 1])) }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 8 else { throw fail(at, "UID of \(size) bytes") }
            return .uid(try uint(at: at + 1, size: size))
        case 0xA, 0xB, 0xC:
            let (n, start) = try count(marker: marker, at: at)
            let items = try elements(n, at: start)
            return marker >> 4 == 0xC ? .set(items) : .array(items)
        case 0xD:
            let (n, start) = try count(marker: marker, at: at)
            var dict = PlistDictionary(minimumCapacity: n)
            for i in 0..<n {
                let keyAt = start + i * refSize
                guard case .string(let key) = try object(try reference(keyAt)) else {
                    throw fail(keyAt, "dictionary key is not a string")
                }
                dict.append(key, try object(try reference(start + (n + i) * refSize)))
            }
            return .dictionary(dict)
        default:
            throw fail(at, String(format: "unknown marker 0x%02x", marker))
        }
    }

    /// Elements per worker below which an array is read on this thread.
    static let elementsPerWorker = 2048

    /// The `n` elements of an array or set whose references start at `start`. A keyed
    /// archive is one array of every object (a large model cache holds tens of thousands):
    /// a large array is read on several threads, each with its own copy of the reader and
    /// its memo (objects shared between two threads' elements are decoded by both).
    private mutating func elements(_ n: Int, at start: Int) throws(StoreError) -> [PlistValue] {
        let workers = n < 2 * Self.elementsPerWorker ? 1 : min(ParallelMap.cores, n / Self.elementsPerWorker)
        guard workers > 1 else {
            var items: [PlistValue] = []
            items.reserveCapacity(n)
            for i in 0..<n { items.append(try object(try reference(start + i * refSize))) }
            return items
        }
        let snapshot = self
        return try ParallelMap.map(count: n, workers: workers, state: { snapshot }) { reader, i throws(StoreError) in
            try reader.object(try reader.reference(start + i * reader.refSize))
        }
    }

    private func slice(_ start: Int, _ n: Int) throws(StoreError) -> ArraySlice<UInt8> {
        guard n >= 0, start <= offsetTable, n <= offsetTable - start else { throw fail(start, "\(n) bytes of content run past the object area") }
        return bytes[start..<start + n]
    }

    private func reference(_ at: Int) throws(StoreError) -> Int {
        guard at <= offsetTable - refSize else { throw fail(at, "object reference runs past the object area") }
        let v = try uint(at: at, size: refSize)
        guard v < UInt64(objectCount) else { throw fail(at, "reference to object \(v) of \(objectCount)") }
        return Int(v)
    }
}
