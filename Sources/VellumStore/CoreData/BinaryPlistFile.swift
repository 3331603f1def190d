import Foundation

/// The bytes of a binary property list (`bplist00`) with its trailer checked: any object
/// can be parsed from it by index, from any thread (it is immutable). Every read is
/// bounds-checked; malformed input is `StoreError.malformedCoreData` naming the byte offset
/// and the reason, never a trap.
struct BinaryPlistFile: Sendable {
    let bytes: [UInt8]
    let what: String
    let offsetSize: Int
    let refSize: Int
    let objectCount: Int
    let offsetTable: Int
    let topObject: Int
    static let maxDepth = 64

    init(bytes: [UInt8], what: String) throws(StoreError) {
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
    }

    func fail(_ offset: Int, _ reason: String) -> StoreError {
        .malformedCoreData(what: what, offset: offset, reason: reason)
    }

    /// A big-endian unsigned integer of `size` bytes at `at`, bounds-checked.
    func uint(at: Int, size: Int) throws(StoreError) -> UInt64 {
        guard at >= 0, size >= 0, at <= bytes.count - size else { throw fail(at, "\(size)-byte field runs past the end") }
        // References and offsets are one or two bytes in all but huge files.
        if size == 1 { return UInt64(bytes[at]) }
        if size == 2 { return UInt64(bytes[at]) << 8 | UInt64(bytes[at + 1]) }
        var v: UInt64 = 0
        for i in at..<at + size { v = v << 8 | UInt64(bytes[i]) }
        return v
    }

    func offset(ofObject index: Int) throws(StoreError) -> Int {
        guard index >= 0, index < objectCount else { throw fail(offsetTable, "reference to object \(index) of \(objectCount)") }
        let v = try uint(at: offsetTable + index * offsetSize, size: offsetSize)
        guard v >= 8, v < UInt64(offsetTable) else { throw fail(offsetTable + index * offsetSize, "object \(index) has offset \(v), outside the object area") }
        return Int(v)
    }

    /// The element count of a marker: its low nibble, or an integer object after it when 0xF.
    /// Returns the count and where the contents start.
    func count(marker: UInt8, at: Int) throws(StoreError) -> (Int, Int) {
        let nibble = Int(marker & 0x0F)
        guard nibble == 0x0F else { return (nibble, at + 1) }
        guard at + 1 < bytes.count, bytes[at + 1] & 0xF0 == 0x10 else { throw fail(at + 1, "extended count is not an integer") }
        let size = 1 << Int(bytes[at + 1] & 0x0F)
        guard size <= 8 else { throw fail(at + 1, "extended count of \(size) bytes") }
        let n = try uint(at: at + 2, size: size)
        guard n <= UInt64(bytes.count) else { throw fail(at + 1, "count \(n) is larger than the file") }
        return (Int(n), at + 2 + size)
    }

    func reference(_ at: Int) throws(StoreError) -> Int {
        guard at <= offsetTable - refSize else { throw fail(at, "object reference runs past the object area") }
        let v = try uint(at: at, size: refSize)
        guard v < UInt64(objectCount) else { throw fail(at, "reference to object \(v) of \(objectCount)") }
        return Int(v)
    }

    /// `body` over the `n` content bytes at `start`, in place (a slice of `bytes` would retain
    /// its storage, shared by every thread decoding this file).
    func withContent<R>(_ start: Int, _ n: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(StoreError) -> R {
        guard n >= 0, start <= offsetTable, n <= offsetTable - start else { throw fail(start, "\(n) bytes of content run past the object area") }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start..<start + n])) }
    }

    /// The object at `at`; a container's elements come from `children` (by object index), so
    /// the caller decides whether shared objects are decoded once or each time. Generic, not
    /// a closure: no context is made, and the file is not copied (its storage not retained)
    /// per object.
    func parse<Children: PlistChildren>(at: Int, _ children: inout Children) throws(StoreError) -> PlistValue {
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
            return .data(try withContent(start, n) { Data($0) })
        case 0x5:
            let (n, start) = try count(marker: marker, at: at)
            let s = try withContent(start, n) { s in s.allSatisfy({ $0 < 0x80 }) ? String(decoding: s, as: UTF8.self) : nil }
            guard let s else { throw fail(start, "ASCII string holds a byte above 127") }
            return .string(s)
        case 0x6:
            let (n, start) = try count(marker: marker, at: at)
            return .string(try withContent(start, n * 2) { s in
                var units: [UInt16] = []
                units.reserveCapacity(n)
                for i in stride(from: 0, to: s.count, by: 2) { units.append(UInt16(s[i]) << 8 | UInt16(s[i + 1])) }
                return String(decoding: units, as: UTF16.self)
            })
        case 0x8:
            let size = Int(marker & 0x0F) + 1
            guard size <= 8 else { throw fail(at, "UID of \(size) bytes") }
            return .uid(try uint(at: at + 1, size: size))
        case 0xA, 0xB, 0xC:
            let (n, start) = try count(marker: marker, at: at)
            var items: [PlistValue] = []
            items.reserveCapacity(n)
            for i in 0..<n { items.append(try children.child(try reference(start + i * refSize), of: self)) }
            return marker >> 4 == 0xC ? .set(items) : .array(items)
        case 0xD:
            let (n, start) = try count(marker: marker, at: at)
            var dict = PlistDictionary(minimumCapacity: n)
            for i in 0..<n {
                let keyAt = start + i * refSize
                guard case .string(let key) = try children.child(try reference(keyAt), of: self) else {
                    throw fail(keyAt, "dictionary key is not a string")
                }
                dict.append(key, try children.child(try reference(start + (n + i) * refSize), of: self))
            }
            return .dictionary(dict)
        default:
            throw fail(at, String(format: "unknown marker 0x%02x", marker))
        }
    }

    /// Object `index` and everything it contains, decoded without a memo (an archive's
    /// objects hold references as UIDs, not as nested objects, so little is shared).
    /// Nesting is bounded by `maxDepth` (a cycle ends there) and the objects decoded by
    /// `budget`, so a crafted file whose objects share children cannot take exponential time.
    func value(ofObject index: Int, budget: Int = 1 << 16) throws(StoreError) -> PlistValue {
        var children = UnsharedChildren(budget: budget)
        return try children.child(index, of: self)
    }

    /// The kind of object `index`: its marker's high nibble (0xA array, 0xD dictionary, …).
    func kind(ofObject index: Int) throws(StoreError) -> UInt8 {
        bytes[try offset(ofObject: index)] >> 4
    }

    /// The object references of the array at object `index`, its elements not decoded.
    func elementReferences(ofObject index: Int) throws(StoreError) -> [Int] {
        let at = try offset(ofObject: index)
        let marker = bytes[at]
        guard marker >> 4 == 0xA else { throw fail(at, "expected an array") }
        let (n, start) = try count(marker: marker, at: at)
        var out: [Int] = []
        out.reserveCapacity(n)
        for i in 0..<n { out.append(try reference(start + i * refSize)) }
        return out
    }

    /// The entries of the dictionary at object `index`: keys decoded, values as references.
    func entryReferences(ofObject index: Int) throws(StoreError) -> [(key: String, object: Int)] {
        let at = try offset(ofObject: index)
        let marker = bytes[at]
        guard marker >> 4 == 0xD else { throw fail(at, "expected a dictionary") }
        let (n, start) = try count(marker: marker, at: at)
        var out: [(key: String, object: Int)] = []
        for i in 0..<n {
            let keyAt = start + i * refSize
            guard case .string(let key) = try value(ofObject: try reference(keyAt)) else { throw fail(keyAt, "dictionary key is not a string") }
            out.append((key, try reference(start + (n + i) * refSize)))
        }
        return out
    }

    /// Whether the object at `index` is a dictionary with a key `$classname` (a keyed
    /// archive's class description), read from the bytes without decoding it: class
    /// descriptions have two or three keys, so larger dictionaries are passed over at once.
    func isClassDescription(_ index: Int) -> Bool {
        guard let at = try? offset(ofObject: index) else { return false }
        let marker = bytes[at]
        guard marker >> 4 == 0xD, (1...4).contains(marker & 0x0F) else { return false }
        let n = Int(marker & 0x0F)
        for i in 0..<n {
            guard let key = try? reference(at + 1 + i * refSize), let keyAt = try? offset(ofObject: key) else { return false }
            if bytes[keyAt] == 0x50 | UInt8(Self.classNameKey.count), keyAt + 1 + Self.classNameKey.count <= offsetTable,
               bytes[(keyAt + 1)..<(keyAt + 1 + Self.classNameKey.count)].elementsEqual(Self.classNameKey) { return true }
        }
        return false
    }

    private static let classNameKey = Array("$classname".utf8)
}

/// How `BinaryPlistFile.parse` gets a container's elements.
protocol PlistChildren {
    mutating func child(_ index: Int, of file: BinaryPlistFile) throws(StoreError) -> PlistValue
}

/// Each element decoded afresh, within a depth and an object budget.
struct UnsharedChildren: PlistChildren {
    let budget: Int
    private var remaining: Int
    private var depth = 0

    init(budget: Int) { self.budget = budget; remaining = budget }

    mutating func child(_ index: Int, of file: BinaryPlistFile) throws(StoreError) -> PlistValue {
        let at = try file.offset(ofObject: index)
        guard depth < BinaryPlistFile.maxDepth else { throw file.fail(at, "containers nested deeper than \(BinaryPlistFile.maxDepth)") }
        remaining -= 1
        guard remaining >= 0 else { throw file.fail(at, "more than \(budget) objects under one object") }
        depth += 1
        defer { depth -= 1 }
        return try file.parse(at: at, &self)
    }
}
