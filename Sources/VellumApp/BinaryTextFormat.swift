import Foundation

/// Binary attribute values as text the field editor can show and read back:
/// hex digits, optionally after `0x`, with spaces allowed between them.
public enum BinaryTextFormat {
    /// Why typed text is not hex bytes (the message names no attribute; the caller does).
    public enum ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        /// A character that is not a hex digit, at a 1-based position of the typed text.
        case badDigit(Character, position: Int)
        /// An odd number of digits: the last byte would be half a byte.
        case oddLength(digits: Int)

        public var description: String {
            switch self {
            case let .badDigit(c, position): return "'\(c)' at position \(position) is not a hex digit"
            case let .oddLength(digits): return "odd number of hex digits (\(digits)); each byte takes two"
            }
        }
    }

    /// `0x` and the bytes as lowercase hex (`0x` alone for no bytes).
    public static func text(_ data: Data) -> String {
        "0x" + data.map { String(format: "%02x", $0) }.joined()
    }

    /// The bytes of `text`: `0x…` or plain hex digits, spaces anywhere.
    public static func data(from text: String) -> Result<Data, ParseError> {
        var characters = Array(text)
        var offset = 0
        if let i = characters.firstIndex(where: { $0 != " " }), characters.count > i + 1,
           characters[i] == "0", characters[i + 1] == "x" || characters[i + 1] == "X" {
            characters.removeSubrange(0...(i + 1))
            offset = i + 2
        }
        var nibbles: [UInt8] = []
        for (i, c) in characters.enumerated() where c != " " {
            guard let nibble = c.hexDigitValue, c.isASCII else { return .failure(.badDigit(c, position: offset + i + 1)) }
            nibbles.append(UInt8(nibble))
        }
        guard nibbles.count % 2 == 0 else { return .failure(.oddLength(digits: nibbles.count)) }
        return .success(Data(stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }))
    }
}
