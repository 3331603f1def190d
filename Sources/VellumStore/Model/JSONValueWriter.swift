import Foundation

/// Writes a `JSONValue` as pretty-printed JSON with sorted keys, byte for byte as
/// `JSONEncoder` with `[.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]` writes
/// it (so a store's stored model text does not change with the writer): two-space
/// indentation, `"key" : value`, empty containers as an open line, doubles in their
/// shortest form without a trailing `.0`.
///
/// Why not `JSONEncoder`: encoding through `Encodable` looks generic types up at run
/// time on first use and boxes every value; a migration spent a third of its
/// instructions writing the new model.
///
/// Complexity: O(n log k) for n values, k the largest object's key count (sorting).
struct JSONValueWriter {
    private var out: [UInt8] = []

    static func prettyData(_ value: JSONValue) -> Data {
        var w = JSONValueWriter()
        w.out.reserveCapacity(4_096)
        w.write(value, indent: 0)
        return Data(w.out)
    }

    private mutating func write(_ value: JSONValue, indent: Int) {
        switch value {
        case .null: append("null")
        case .bool(let b): append(b ? "true" : "false")
        case .integer(let i): append(String(i))
        case .number(let d): append(Self.text(of: d))
        case .string(let s): writeString(s)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            if elements.isEmpty {
                emptyBody(indent)
            } else {
                for (i, e) in elements.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    write(e, indent: indent + 1)
                }
                newline(indent)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            if members.isEmpty {
                emptyBody(indent)
            } else {
                // By UTF-8 bytes, as JSONEncoder sorts (not String's canonical-equivalence order).
                for (i, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    writeString(key)
                    append(" : ")
                    write(members[key]!, indent: indent + 1)
                }
                newline(indent)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `JSONEncoder` writes an empty container as an empty line between its brackets.
    private mutating func emptyBody(_ indent: Int) {
        out.append(0x0A)
        newline(indent)
    }

    private mutating func newline(_ indent: Int) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private mutating func append(_ text: String) { out.append(contentsOf: text.utf8) }

    private mutating func writeString(_ s: String) {
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x09: append("\\t")
            case 0x0D: append("\\r")
            case 0x08: append("\\b")
            case 0x0C: append("\\f")
            case ..<0x20:
                append("\\u00")
                out.append(Self.hexDigits[Int(b >> 4)])
                out.append(Self.hexDigits[Int(b & 0xF)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// A finite double as `JSONEncoder` writes it: Swift's shortest round-tripping form,
    /// `1.0` as `1`.
    static func text(of d: Double) -> String {
        let text = d.description
        return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}
