import Foundation

/// A position in a store's history: the last change a consumer has seen.
/// Tokens compare, and can be stored (`rawValue`) and restored.
public struct HistoryToken: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }
    public static let start = HistoryToken(rawValue: 0)
    public static func < (a: HistoryToken, b: HistoryToken) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "history#\(rawValue)" }
}
