import Foundation

/// A Codable error in a sentence: what was wrong and where in the value
/// (`Expected String but found number at tags.[1]`), not the error's debug dump.
enum CodingErrorText {
    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.typeMismatch(_, let c), DecodingError.valueNotFound(_, let c), DecodingError.dataCorrupted(let c):
            return c.debugDescription + path(c.codingPath)
        case DecodingError.keyNotFound(let key, let c):
            return "no value for '\(key.stringValue)'" + path(c.codingPath)
        case EncodingError.invalidValue(_, let c):
            return c.debugDescription + path(c.codingPath)
        default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.isEmpty ? "" : " at " + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
