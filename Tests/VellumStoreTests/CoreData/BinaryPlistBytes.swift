import Foundation

/// Writes binary plists byte by byte for tests: each object is given as its encoded bytes
/// (marker and contents, references as one byte), so tests can build every object type and
/// damaged files alike. Offsets are one byte wide, so a plist stays under 256 bytes.
struct BinaryPlistBytes {
    var objects: [[UInt8]] = []

    /// Adds an object's encoding and returns its index.
    @discardableResult
    mutating func add(_ bytes: [UInt8]) -> UInt8 {
        objects.append(bytes)
        return UInt8(objects.count - 1)
    }

    mutating func ascii(_ s: String) -> UInt8 { add([0x50 | UInt8(s.utf8.count)] + Array(s.utf8)) }

    /// The file: header, objects, offset table, trailer (top object `top`).
    func data(top: UInt8 = 0) -> Data {
        var out = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for o in objects { offsets.append(UInt8(out.count)); out += o }
        let table = out.count
        out += offsets
        out += [0, 0, 0, 0, 0, 0, 1, 1]
        out += bigEndian(UInt64(objects.count)) + bigEndian(UInt64(top)) + bigEndian(UInt64(table))
        return Data(out)
    }

    func bigEndian(_ v: UInt64) -> [UInt8] { (0..<8).reversed().map { UInt8(truncatingIfNeeded: v >> (UInt64($0) * 8)) } }
}
