import Foundation
import Testing
@testable import VellumStore

/// The model format's own JSON reader and writer against Foundation's `JSONDecoder` and
/// `JSONEncoder`, which they replaced: the same values read, the same bytes written
/// (a store's stored model text must not change with the writer).
@Suite struct JSONValueReaderWriterTests {
    /// `JSONValue` as Foundation decoded and encoded it before (the reference).
    struct Reference: Codable, Equatable {
        var value: JSONValue

        init(_ value: JSONValue) { self.value = value }

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() { value = .null }
            else if let s = try? c.decode(String.self) { value = .string(s) }
            else if let o = try? c.decode([String: Reference].self) { value = .object(o.mapValues(\.value)) }
            else if let a = try? c.decode([Reference].self) { value = .array(a.map(\.value)) }
            else if let b = try? c.decode(Bool.self) { value = .bool(b) }
            else if let i = try? c.decode(Int64.self) { value = .integer(i) }
            else { value = .number(try c.decode(Double.self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            switch value {
            case .null: try c.encodeNil()
            case .bool(let b): try c.encode(b)
            case .integer(let i): try c.encode(i)
            case .number(let d): try c.encode(d)
            case .string(let s): try c.encode(s)
            case .array(let a): try c.encode(a.map(Reference.init))
            case .object(let o): try c.encode(o.mapValues(Reference.init))
            }
        }

        static func encoded(_ value: JSONValue) throws -> Data {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            return try encoder.encode(Reference(value))
        }

        static func decoded(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(Reference.self, from: data).value }
    }

    /// A random value: strings with escapes, controls and non-ASCII, integers of every size,
    /// doubles integral and not, tiny and huge, empty and nested containers.
    static func randomValue(_ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth < 4 ? 9 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            let magnitude = [Int64(9), 1_000, Int64.max]
            return .integer(Int64.random(in: -magnitude[Int.random(in: 0..<3, using: &rng)]...Int64.max, using: &rng) / (Bool.random(using: &rng) ? 1 : 1_000_000))
        case 3:
            let d: Double
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: d = Double(Int.random(in: -1_000_000...1_000_000, using: &rng)) / 8
            case 1: d = Double.random(in: -1e-6...1e-6, using: &rng)
            case 2: d = Double(bitPattern: UInt64.random(in: 0...0x7FEF_FFFF_FFFF_FFFF, using: &rng)) * (Bool.random(using: &rng) ? 1 : -1)
            default: d = Double.random(in: -1e20...1e20, using: &rng)
            }
            return .number(d)
        case 4, 5: return .string(randomString(&rng))
        case 6, 7:
            return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &rng) { members[randomString(&rng)] = randomValue(&rng, depth: depth + 1) }
            return .object(members)
        }
    }

    static func randomString(_ rng: inout SplitMix64) -> String {
        let pieces: [String] = ["a", "Z", "_", "name", "10", "2", "\"", "\\", "/", "\n", "\t", "\r", "\u{8}", "\u{C}", "\u{0}",
                                "\u{1B}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "😀", "日本", " ", "e\u{301}"]
        return (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
    }

    @Test func theWriterWritesTheBytesJSONEncoderWrote() throws {
        let seed = SplitMix64.seedFromEnvironment()
        var rng = SplitMix64(seed: seed)
        for i in 0..<2_000 {
            let value = Self.randomValue(&rng)
            let ours = JSONValueWriter.prettyData(value)
            let reference = try Reference.encoded(value)
            #expect(ours == reference, "value \(i) (VELLUM_SEED=\(seed)):\n\(String(decoding: ours, as: UTF8.self))\nJSONEncoder:\n\(String(decoding: reference, as: UTF8.self))")
            if ours != reference { return }
        }
    }

    @Test func theReaderReadsWhatJSONDecoderRead() throws {
        let seed = SplitMix64.seedFromEnvironment()
        var rng = SplitMix64(seed: seed)
        for i in 0..<2_000 {
            let text = try Reference.encoded(Self.randomValue(&rng))
            // Pretty and compact (JSONSerialization's spacing) forms of the same value.
            let compact = try JSONSerialization.data(withJSONObject: JSONSerialization.jsonObject(with: text, options: .fragmentsAllowed),
                                                     options: .fragmentsAllowed)
            for form in [text, compact] {
                let ours = try JSONValueReader.read(form)
                let reference = try Reference.decoded(form)
                #expect(ours == reference, "value \(i) (VELLUM_SEED=\(seed)): \(String(decoding: form, as: UTF8.self))")
                if ours != reference { return }
            }
        }
    }

    @Test(arguments: [
        ("1.0", JSONValue.integer(1)), ("1e2", .integer(100)), ("-0", .integer(0)), ("1.5", .number(1.5)),
        ("12345678901234567890", .number(1.2345678901234567e19)), ("-8.640137489601577e+18", .integer(-8640137489601577000)), ("0.000e5", .integer(0)), ("1.25e2", .integer(125)), ("1.255e2", .number(125.5)), ("9223372036854775807", .integer(.max)),
        ("-9223372036854775808", .integer(.min)), ("2.5E-3", .number(0.0025)),
        (" \t\r\n[ 1 , {\"a\" : \"\\u00e9\\ud83d\\ude00\\/\"} ] \n", .array([.integer(1), .object(["a": .string("é😀/")])])),
        // One trailing comma, which Foundation accepted (hand-written models have them).
        ("[1, 2, ]", .array([.integer(1), .integer(2)])), ("{\"a\": [1,], }", .object(["a": .array([.integer(1)])])),
    ])
    func numbersAndEscapesReadAsJSONDecoderReadThem(text: String, expected: JSONValue) throws {
        #expect(try JSONValueReader.read(Data(text.utf8)) == expected)
        #expect(try Reference.decoded(Data(text.utf8)) == expected)
    }

    @Test(arguments: [
        "", " ", "{", "[1,,]", "[,]", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":1,,}", "{1:2}", "01", "1.", "-", ".5", "+1", "1e", "tru", "nul",
        "\"abc", "\"\\x\"", "\"\\u12\"", "\"\u{1}\"", "\"\\ud800\"", "\"\\udc00x\"", "1 2", "[1]]", "1e400",
    ])
    func malformedTextIsRefused(text: String) {
        #expect(throws: JSONValueReader.Failure.self) { try JSONValueReader.read(Data(text.utf8)) }
    }

    @Test func invalidUTF8AndDeepNestingAreRefused() {
        #expect(throws: JSONValueReader.Failure.self) { try JSONValueReader.read(Data([0x22, 0xC3, 0x28, 0x22])) }
        #expect(throws: JSONValueReader.Failure.self) { try JSONValueReader.read(Data([0x22, 0xFF, 0x22])) }
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONValueReader.Failure.self) { try JSONValueReader.read(Data(deep.utf8)) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try JSONValueReader.read(Data(fine.utf8)) }
    }

    /// The model text a store keeps is the same as before the writer changed: every fixture
    /// model written by both.
    @Test func aModelIsWrittenAsBefore() throws {
        let model = try ModelBuilder()
            .entity("Shop") {
                $0.attribute("name", .string, optional: false, min: 1, max: 40.5, regex: "^[a-z]+$", indexed: true)
                $0.attribute("rating", .double, default: .double(4.5))
                $0.attribute("opened", .date, default: .date(Date(timeIntervalSince1970: 1_000_000_000.25)))
                $0.attribute("code", .string, default: .string("a/b \"c\"\n"))
                $0.toMany("items", "Item", inverse: "shop")
            }
            .entity("Item") {
                $0.attribute("count", .integer64, default: .integer(-3))
                $0.toOne("shop", "Shop", inverse: "items")
            }
            .build()
        let entities = model.entityDescriptions.sorted { $0.name < $1.name }
        let written = model.jsonData()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let reference = try encoder.encode(Reference(JSONValueReader.read(written)))
        #expect(written == reference)
        #expect(try ManagedObjectModel(jsonData: written).entityDescriptions.sorted { $0.name < $1.name } == entities)
    }
}

extension JSONValueReaderWriterTests {
    /// JSONDecoder read a model saved with a byte order mark, or as UTF-16 or UTF-32: so does the reader.
    @Test func byteOrderMarksAndOtherUnicodeEncodingsAreRead() throws {
        let text = "{\"entities\": [\"é😀\", 1.5, null]}"
        let expected = JSONValue.object(["entities": .array([.string("é😀"), .number(1.5), .null])])
        var forms: [Data] = [Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)]
        for encoding in [String.Encoding.utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian, .utf16, .utf32] {
            forms.append(try #require(text.data(using: encoding)))
        }
        for (i, form) in forms.enumerated() {
            #expect(try JSONValueReader.read(form) == expected, "\(Array(form.prefix(4)))")
            // JSONDecoder took UTF-32 with a byte order mark (FF FE 00 00) for UTF-16 and failed.
            if i < forms.count - 1 { #expect(try Reference.decoded(form) == expected, "\(Array(form.prefix(4)))") }
        }
    }
}

extension JSONValueReaderWriterTests {
    /// Long numbers read in time linear in their length (leading zeros were removed one by
    /// one from the front of an array: quadratic), and exactly.
    @Test func longNumbersReadInLinearTimeAndExactly() throws {
        let tiny = "0." + String(repeating: "0", count: 200_000) + "1"
        #expect(try JSONValueReader.read(Data(tiny.utf8)) == .number(0))
        let zeros = String(repeating: "0", count: 200_000)
        #expect(try JSONValueReader.read(Data(("0." + zeros + "e5").utf8)) == .integer(0))
        #expect(try JSONValueReader.read(Data(("1" + String(repeating: "0", count: 18) + ".000e0").utf8)) == .integer(1_000_000_000_000_000_000))
        #expect(try JSONValueReader.read(Data("-9.223372036854775808e18".utf8)) == .integer(.min))
        #expect(try JSONValueReader.read(Data("9.223372036854775808e18".utf8)) == .number(9.223372036854775808e18))
    }
}
