import Foundation

/// A binary property list (`bplist00`) writer for the values a keyed archive holds,
/// UIDs included (Foundation's writer on Linux has no public UID type). Used to build
/// the large compiled model of `coredata-open-model-large`.
enum PlistNode {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case data(Data)
    case uid(Int)
    case array([PlistNode])
    case dictionary([(String, PlistNode)])
}

struct BinaryPlistWriter {
    private var objects: [[UInt8]] = []
    /// Strings and integers written once and shared, as CoreFoundation's writer does (so a
    /// dictionary key such as `NSPropertyName` is one object however often it is used).
    private var shared: [String: Int] = [:]

    /// The file's bytes with `root` as its top object: 4-byte object references, 8-byte
    /// offsets; equal strings and integers are one object.
    static func data(_ root: PlistNode) -> Data {
        var w = BinaryPlistWriter()
        let top = w.add(root)
        var out = Array("bplist00".utf8)
        var offsets: [UInt64] = []
        for o in w.objects { offsets.append(UInt64(out.count)); out += o }
        let tableOffset = UInt64(out.count)
        for o in offsets { out += bigEndian(o, bytes: 8) }
        out += [0, 0, 0, 0, 0, 0, 8, 4]
        out += bigEndian(UInt64(w.objects.count), bytes: 8) + bigEndian(UInt64(top), bytes: 8) + bigEndian(tableOffset, bytes: 8)
        return Data(out)
    }

    private mutating func add(_ node: PlistNode) -> Int {
        let key: String?
        switch node {
        case .string(let s): key = "s" + s
        case .integer(let i): key = "i\(i)"
        default: key = nil
        }
        if let key, let known = shared[key] { return known }
        let index = objects.count
        if let key { shared[key] = index }
        objects.append([])  // reserved: children are added after their parent
        var bytes: [UInt8]
        switch node {
        case .string(let s):
            if s.utf8.allSatisfy({ $0 < 0x80 }) {
                bytes = Self.marker(0x5, count: s.utf8.count) + Array(s.utf8)
            } else {
                let units = Array(s.utf16)
                bytes = Self.marker(0x6, count: units.count) + units.flatMap { Self.bigEndian(UInt64($0), bytes: 2) }
            }
        case .integer(let i): bytes = [0x13] + Self.bigEndian(UInt64(bitPattern: i), bytes: 8)
        case .bool(let b): bytes = [b ? 0x09 : 0x08]
        case .data(let d): bytes = Self.marker(0x4, count: d.count) + Array(d)
        case .uid(let n): bytes = [0x83] + Self.bigEndian(UInt64(n), bytes: 4)
        case .array(let items):
            let refs = items.map { add($0) }
            bytes = Self.marker(0xA, count: refs.count) + refs.flatMap { Self.bigEndian(UInt64($0), bytes: 4) }
        case .dictionary(let entries):
            let keys = entries.map { add(.string($0.0)) }
            let values = entries.map { add($0.1) }
            bytes = Self.marker(0xD, count: entries.count) + (keys + values).flatMap { Self.bigEndian(UInt64($0), bytes: 4) }
        }
        objects[index] = bytes
        return index
    }

    private static func marker(_ kind: UInt8, count: Int) -> [UInt8] {
        if count < 15 { return [kind << 4 | UInt8(count)] }
        return [kind << 4 | 0xF, 0x13] + bigEndian(UInt64(count), bytes: 8)
    }

    private static func bigEndian(_ v: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: v >> (UInt64($0) * 8)) }
    }
}

/// Builds an NSKeyedArchiver archive: objects in `$objects`, referenced by UID.
struct KeyedArchiveBuilder {
    private var objects: [PlistNode] = [.string("$null")]
    private var classes: [String: Int] = [:]

    /// Adds a plain value (a string) to `$objects` and returns its reference.
    mutating func value(_ node: PlistNode) -> PlistNode {
        objects.append(node)
        return .uid(objects.count - 1)
    }

    /// Adds an object of `className` with `fields`, returning its reference.
    mutating func object(_ className: String, _ fields: [(String, PlistNode)]) -> PlistNode {
        let cls: Int
        if let known = classes[className] {
            cls = known
        } else {
            objects.append(.dictionary([("$classname", .string(className)), ("$classes", .array([.string(className), .string("NSObject")]))]))
            cls = objects.count - 1
            classes[className] = cls
        }
        objects.append(.dictionary(fields + [("$class", .uid(cls))]))
        return .uid(objects.count - 1)
    }

    /// An archived NSDictionary of `entries`.
    mutating func dictionary(_ entries: [(String, PlistNode)]) -> PlistNode {
        let keys = entries.map { value(.string($0.0)) }
        return object("NSDictionary", [("NS.keys", .array(keys)), ("NS.objects", .array(entries.map(\.1)))])
    }

    func data(root: PlistNode) -> Data {
        BinaryPlistWriter.data(.dictionary([
            ("$archiver", .string("NSKeyedArchiver")), ("$version", .integer(100_000)),
            ("$top", .dictionary([("root", root)])), ("$objects", .array(objects)),
        ]))
    }
}
