import Foundation

/// Reads JSON text (RFC 8259, plus one trailing comma in an array or object, as
/// Foundation's reader allows) into a `JSONValue`, byte by byte.
///
/// Why not `JSONDecoder`: decoding `JSONValue` through `Codable` tries each kind in
/// turn, building an error for every failed try; a store's model, read on every
/// open and twice per migration, spent most of its decoding there. Errors here only
/// say where reading stopped: the model reader asks `JSONSerialization` for the
/// message a user sees.
///
/// Complexity: O(n) in the length of the text; nesting is limited to
/// `JSONSyntax.maximumDepth` levels.
struct JSONValueReader {
    /// Where the text stops being JSON, as a byte offset.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "\(message) at byte \(offset)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var at = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The one JSON value `data` holds (whitespace around it allowed). UTF-8, with or
    /// without a byte order mark; UTF-16 and UTF-32 text is read as JSONDecoder reads it.
    static func read(_ data: Data) throws(Failure) -> JSONValue {
        let utf8 = try utf8Text(data)
        let result: Result<JSONValue, Failure> = utf8.withUnsafeBytes { raw in
            var reader = JSONValueReader(raw.bindMemory(to: UInt8.self))
            if raw.starts(with: [0xEF, 0xBB, 0xBF]) { reader.at = 3 }
            do throws(Failure) {
                let value = try reader.value(depth: 0)
                reader.skipWhitespace()
                guard reader.at == reader.bytes.count else { throw reader.failure("text after the value") }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// `data` itself when it is UTF-8 (JSON's own encoding), else transcoded from the UTF-16
    /// or UTF-32 its byte order mark or its zero bytes show (RFC 4627's detection).
    private static func utf8Text(_ data: Data) throws(Failure) -> Data {
        let head = Array(data.prefix(4))
        guard head.count >= 2, head.contains(0) || head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) else { return data }
        let encoding: String.Encoding
        switch (head.count >= 4 ? head : head + [1, 1]) {
        case let h where h.starts(with: [0, 0, 0xFE, 0xFF]) || (h[0] == 0 && h[1] == 0 && h[2] == 0): encoding = .utf32BigEndian
        case let h where h.starts(with: [0xFF, 0xFE, 0, 0]) || (h[1] == 0 && h[2] == 0 && h[3] == 0): encoding = .utf32LittleEndian
        case let h where h.starts(with: [0xFE, 0xFF]) || h[0] == 0: encoding = .utf16BigEndian
        default: encoding = .utf16LittleEndian
        }
        var body = data
        if head.starts(with: [0, 0, 0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE, 0, 0]) { body = data.dropFirst(4) }
        else if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { body = data.dropFirst(2) }
        guard let text = String(data: body, encoding: encoding) else { throw Failure(offset: 0, message: "text in no Unicode encoding") }
        return Data(text.utf8)
    }

    private func failure(_ message: String) -> Failure { Failure(offset: at, message: message) }

    private mutating func skipWhitespace() {
        while at < bytes.count {
            switch bytes[at] {
            case 0x20, 0x09, 0x0A, 0x0D: at += 1
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        skipWhitespace()
        guard at < bytes.count else { throw failure("unexpected end of text") }
        switch bytes[at] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard at + count <= bytes.count else { throw failure("unexpected end of text") }
        for i in 0..<count where bytes[at + i] != word.utf8Start[i] { throw failure("unexpected character") }
        at += count
    }

    private mutating func object(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= JSONSyntax.maximumDepth else { throw failure("nested too deeply") }
        at += 1  // {
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "}") { at += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            at += 1
            members[key] = try value(depth: depth)
            skipWhitespace()
            guard at < bytes.count else { throw failure("unexpected end of text") }
            switch bytes[at] {
            case UInt8(ascii: ","):
                at += 1
                if closes(UInt8(ascii: "}")) { return .object(members) }
            case UInt8(ascii: "}"): at += 1; return .object(members)
            default: throw failure("expected ',' or '}'")
            }
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= JSONSyntax.maximumDepth else { throw failure("nested too deeply") }
        at += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if at < bytes.count, bytes[at] == UInt8(ascii: "]") { at += 1; return .array(elements) }
        while true {
            elements.append(try value(depth: depth))
            skipWhitespace()
            guard at < bytes.count else { throw failure("unexpected end of text") }
            switch bytes[at] {
            case UInt8(ascii: ","):
                at += 1
                if closes(UInt8(ascii: "]")) { return .array(elements) }
            case UInt8(ascii: "]"): at += 1; return .array(elements)
            default: throw failure("expected ',' or ']'")
            }
        }
    }

    /// After a member's comma: the closing bracket follows (consumed). Foundation's reader,
    /// which read models before, accepts one trailing comma, and hand-written models have them.
    private mutating func closes(_ bracket: UInt8) -> Bool {
        skipWhitespace()
        guard at < bytes.count, bytes[at] == bracket else { return false }
        at += 1
        return true
    }

    /// A string from its opening quote: unescaped runs are copied as they are (checked as
    /// UTF-8), escapes decoded; control characters must be escaped.
    private mutating func string() throws(Failure) -> String {
        at += 1  // "
        let start = at
        // The common case: no escape, one validated copy.
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "\"") {
                let text = try utf8(start..<at)
                at += 1
                return text
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw failure("control character in a string") }
            at += 1
        }
        var decoded: [UInt8] = Array(bytes[start..<at])
        while at < bytes.count {
            let b = bytes[at]
            switch b {
            case UInt8(ascii: "\""):
                at += 1
                guard let text = String(validating: decoded, as: UTF8.self) else { throw failure("a string is not valid UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                at += 1
                try escape(into: &decoded)
            case ..<0x20:
                throw failure("control character in a string")
            default:
                decoded.append(b)
                at += 1
            }
        }
        throw failure("unterminated string")
    }

    private func utf8(_ range: Range<Int>) throws(Failure) -> String {
        guard let text = String(validating: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) else {
            throw Failure(offset: range.lowerBound, message: "a string is not valid UTF-8")
        }
        return text
    }

    /// The escape after a backslash, appended as UTF-8.
    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        guard at < bytes.count else { throw failure("unterminated string") }
        let c = bytes[at]
        at += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var unit = try hex4()
            if (0xD800...0xDBFF).contains(unit) {
                // A high surrogate must be followed by an escaped low one.
                guard at + 1 < bytes.count, bytes[at] == UInt8(ascii: "\\"), bytes[at + 1] == UInt8(ascii: "u") else {
                    throw failure("unpaired surrogate in a string")
                }
                at += 2
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate in a string") }
                unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(unit) {
                throw failure("unpaired surrogate in a string")
            }
            // Not a surrogate (checked above), so a scalar.
            Unicode.UTF8.encode(Unicode.Scalar(unit)!) { out.append($0) }
        default:
            throw failure("invalid escape in a string")
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard at + 4 <= bytes.count else { throw failure("unterminated string") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[at]
            let digit: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw failure("invalid \\u escape")
            }
            v = v << 4 | digit
            at += 1
        }
        return v
    }

    /// A number by RFC 8259's grammar: an integer that fits 64 bits stays an integer
    /// (exact, as do integral values written with a fraction or exponent), any other
    /// number is a Double.
    private mutating func number() throws(Failure) -> JSONValue {
        let start = at
        var isInteger = true
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
        if bytes[at] == UInt8(ascii: "0") {
            at += 1
        } else {
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
            isInteger = false
            at += 1
            guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
            isInteger = false
            at += 1
            if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
            guard at < bytes.count, isDigit(bytes[at]) else { throw failure("invalid number") }
            while at < bytes.count, isDigit(bytes[at]) { at += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        if isInteger, let i = Int64(text) { return .integer(i) }
        // As JSONDecoder reads them: `1.0`, `1e2` and `-8.6e+18` are integers when their
        // exact decimal value is one that fits.
        if !isInteger, let i = Self.exactInteger(text) { return .integer(i) }
        guard let d = Double(text), d.isFinite else { throw Failure(offset: start, message: "number out of range") }
        return .number(d)
    }

    /// The value of a number written with a fraction or exponent when it is a whole number
    /// within Int64 (decimal arithmetic, no rounding through Double).
    static func exactInteger(_ text: String) -> Int64? {
        var digits: [UInt8] = []
        var exponent = 0
        var negative = false
        var utf8 = text.utf8[...]
        if utf8.first == UInt8(ascii: "-") { negative = true; utf8 = utf8.dropFirst() }
        var afterPoint = false
        while let b = utf8.first, b != UInt8(ascii: "e"), b != UInt8(ascii: "E") {
            utf8 = utf8.dropFirst()
            if b == UInt8(ascii: ".") { afterPoint = true; continue }
            digits.append(b - UInt8(ascii: "0"))
            if afterPoint { exponent -= 1 }
        }
        if !utf8.isEmpty {
            guard let e = Int(String(decoding: utf8.dropFirst(), as: UTF8.self)), abs(e) < 1_000 else { return nil }
            exponent += e
        }
        guard let firstNonZero = digits.firstIndex(where: { $0 != 0 }) else { return 0 }
        while exponent < 0, digits.last == 0 { digits.removeLast(); exponent += 1 }
        let significant = digits[firstNonZero...]
        guard exponent >= 0, significant.count + exponent <= 19 else { return nil }
        var magnitude: UInt64 = 0
        for d in significant { magnitude = magnitude * 10 + UInt64(d) }
        for _ in 0..<exponent { magnitude *= 10 }
        if negative { return magnitude <= UInt64(Int64.max) + 1 ? Int64(truncatingIfNeeded: 0 &- magnitude) : nil }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
}
