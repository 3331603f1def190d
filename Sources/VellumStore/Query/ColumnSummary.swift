import Foundation

/// Statistics and a frequency table for one attribute over a fetch's rows,
/// computed in SQL (fast on a million rows). Reflects saved data only.
public struct ColumnSummary: Sendable, Equatable {
    public struct Bucket: Sendable, Hashable {
        public var value: Value
        public var count: Int
    }

    public var attribute: String
    /// Rows matching the request.
    public var count: Int
    public var nulls: Int
    public var distinct: Int
    /// For numbers and dates.
    public var min: Value?
    public var max: Value?
    public var mean: Double?
    /// Most frequent values first (ties by value), up to the requested limit.
    public var top: [Bucket]
}
