import Foundation
import Testing
import VellumStore

@Suite struct BinaryPlistReaderTests {
    func deep8(_ v: UInt64) -> [UInt8] { BinaryPlistBytes().bigEndian(v) }

    @Test func readsEveryObjectType() throws {
        var p = BinaryPlistBytes()
        let keys = ["int", "neg", "big", "huge", "f32", "f64", "date", "data", "utf16", "uid", "set", "array", "yes", "no", "null"]
        let keyRefs = keys.map { p.ascii($0) }
        var values: [UInt8] = []
        values.append(p.add([0x10, 42]))
        values.append(p.add([0x13] + p.bigEndian(UInt64(bitPattern: -5))))
        values.append(p.add([0x13] + p.bigEndian(UInt64(Int64.max))))
        values.append(p.add([0x14] + p.bigEndian(0) + p.bigEndian(UInt64.max)))
        values.append(p.add([0x22] + withUnsafeBytes(of: Float(1.5).bitPattern.bigEndian, Array.init)))
        values.append(p.add([0x23] + p.bigEndian((-2.25).bitPattern)))
        values.append(p.add([0x33] + p.bigEndian((86400.0).bitPattern)))
        values.append(p.add([0x43, 1, 2, 3]))
        values.append(p.add([0x62, 0x00, 0xE9, 0xD8, 0x3D]))  // "é" and a lone high surrogate
        values.append(p.add([0x81, 0x01, 0x2C]))
        let one = p.add([0x10, 1]), two = p.add([0x10, 2])
        values.append(p.add([0xC2, one, two]))
        // An array whose count is an extended (0xF) count.
        values.append(p.add([0xAF, 0x10, 0x02, one, two]))
        values.append(p.add([0x09]))
        values.append(p.add([0x08]))
        values.append(p.add([0x00]))
        // 15 entries: the count is an extended one.
        let dict = p.add([0xDF, 0x10, UInt8(keys.count)] + keyRefs + values)
        let value = try BinaryPlistReader.read(p.data(top: dict))
        let d = try #require(value.dictionary)
        #expect(d["int"] == .integer(42))
        #expect(d["neg"] == .integer(-5))
        #expect(d["big"] == .integer(Int64.max))
        #expect(d["huge"] == .unsignedInteger(UInt64.max))
        #expect(d["f32"] == .real(1.5))
        #expect(d["f64"] == .real(-2.25))
        #expect(d["date"] == .date(86400))
        #expect(d["data"] == .data(Data([1, 2, 3])))
        #expect(d["utf16"] == .string("é\u{FFFD}"))
        #expect(d["uid"] == .uid(300))
        #expect(d["set"] == .set([.integer(1), .integer(2)]))
        #expect(d["array"] == .array([.integer(1), .integer(2)]))
        #expect(d["yes"] == .bool(true))
        #expect(d["no"] == .bool(false))
        #expect(d["null"] == .null)
    }

    @Test func readsWhatFoundationWrites() throws {
        let date = Date(timeIntervalSinceReferenceDate: 12345.5)
        let object: [String: Any] = ["name": "Zoë", "count": 7, "ratio": 0.25, "when": date, "list": [1, 2, 3], "blob": Data([9, 8])]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let d = try #require(try BinaryPlistReader.read(data).dictionary)
        #expect(d["name"] == .string("Zoë"))
        #expect(d["count"] == .integer(7))
        #expect(d["ratio"] == .real(0.25))
        #expect(d["when"] == .date(12345.5))
        #expect(d["list"] == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(d["blob"] == .data(Data([9, 8])))
    }

    /// Each damaged file is refused with the byte offset and the reason.
    @Test func malformedInputNamesOffsetAndReason() throws {
        func failure(_ data: Data) -> (Int?, String)? {
            do { _ = try BinaryPlistReader.read(data, what: "test plist"); return nil } catch {
                guard case .malformedCoreData(let what, let offset, let reason) = error, what == "test plist" else { return nil }
                return (offset, reason)
            }
        }
        #expect(failure(Data("not a plist at all, but long enough to have a trailer".utf8))?.1 == "no bplist00 header")
        #expect(failure(Data("bplist00".utf8))?.1.contains("too short") == true)

        var cyclic = BinaryPlistBytes()
        cyclic.add([0xA1, 0x00])  // an array holding itself
        let cycle = try #require(failure(cyclic.data()))
        #expect(cycle.0 == 8 && cycle.1.contains("contains itself"))

        var dangling = BinaryPlistBytes()
        dangling.add([0xA1, 0x07])
        #expect(failure(dangling.data())?.1.contains("reference to object 7 of 1") == true)

        var truncated = BinaryPlistBytes()
        truncated.add([0x5F, 0x10, 0x20, 0x41])  // says 32 characters, holds one
        let t = try #require(failure(truncated.data()))
        #expect(t.0 == 11 && t.1.contains("run past"))

        var badKey = BinaryPlistBytes()
        badKey.add([0xD1, 0x01, 0x01])
        badKey.add([0x10, 0x01])
        #expect(failure(badKey.data())?.1 == "dictionary key is not a string")

        // 1000 arrays, each holding the next: refused before the stack runs out (even on a test thread under ThreadSanitizer). (Two-byte
        // references and offsets: this plist is larger than the one-byte test writer allows.)
        var deep: [UInt8] = Array("bplist00".utf8), offsets: [Int] = []
        for i in 0..<1000 { offsets.append(deep.count); deep += i == 999 ? [0x00] : [0xA1, UInt8((i + 1) >> 8), UInt8((i + 1) & 0xFF)] }
        let table = deep.count
        for o in offsets { deep += [UInt8(o >> 8), UInt8(o & 0xFF)] }
        deep += [0, 0, 0, 0, 0, 0, 2, 2] + deep8(1000) + deep8(0) + deep8(UInt64(table))
        #expect(failure(Data(deep))?.1 == "containers nested deeper than 64")

        var unknown = BinaryPlistBytes()
        unknown.add([0x70])
        #expect(failure(unknown.data()) .map { $0.0 == 8 && $0.1 == "unknown marker 0x70" } == true)
    }
}

/// A keyed archive is one large array of objects: every element read in order, and a
/// damaged one reported at the first damaged position.
@Suite struct BinaryPlistLargeArrayTests {
    static let count = 10_000

    /// `count` dictionaries sharing their keys (as an archive's objects do), written by Foundation.
    static func data() throws -> Data {
        let list: [Any] = (0..<count).map { i in ["name": "item \(i)", "n": i, "tags": ["a", "b\(i % 7)"]] as [String: Any] }
        return try PropertyListSerialization.data(fromPropertyList: ["$objects": list], format: .binary, options: 0)
    }

    @Test func aLargeArrayReadsEveryElementInOrder() throws {
        let value = try BinaryPlistReader.read(try Self.data())
        let items = try #require(value.dictionary?["$objects"]?.elements)
        #expect(items.count == Self.count)
        for (i, item) in items.enumerated() {
            let expected: PlistDictionary = ["name": .string("item \(i)"), "n": .integer(Int64(i)), "tags": .array([.string("a"), .string("b\(i % 7)")])]
            #expect(item.dictionary == expected, "element \(i)")
        }
    }

    @Test func aDamagedElementOfALargeArrayIsReportedFirstByPosition() throws {
        var bytes = [UInt8](try Self.data())
        // The trailer gives the offset table; the top dictionary's one value is the array.
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), refSize = Int(bytes[trailer + 7])
        func number(_ at: Int, _ size: Int) -> Int { bytes[at..<at + size].reduce(0) { $0 << 8 | Int($1) } }
        let table = number(trailer + 24, 8)
        func offset(_ object: Int) -> Int { number(table + object * offsetSize, offsetSize) }
        let top = offset(number(trailer + 16, 8))
        #expect(bytes[top] == 0xD1)
        let array = offset(number(top + 1 + refSize, refSize))
        #expect(bytes[array] == 0xAF)
        let countSize = 1 << Int(bytes[array + 1] & 0x0F)
        let firstRef = array + 2 + countSize
        let damaged = [9_000, 3_000, 7_500].map { offset(number(firstRef + $0 * refSize, refSize)) }
        for at in damaged { bytes[at] = 0x70 }
        for _ in 0..<5 {
            do {
                _ = try BinaryPlistReader.read(Data(bytes), what: "big.plist")
                Issue.record("a damaged plist was read")
            } catch {
                #expect("\(error)".contains("at byte \(damaged[1]):") && "\(error)".contains("unknown marker 0x70"), "\(error) (damaged at \(damaged))")
            }
        }
    }
}
