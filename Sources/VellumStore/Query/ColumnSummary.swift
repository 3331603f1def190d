import Foundation

/// Statistics and a frequency table for one attribute over a fetch's rows,
/// computed in SQL (fast on a million rows). Reflects saved data only.
public struct ColumnSummary: Sendable, Equatable {
    public struct Bucket: Sendable, Hashable {
        public var value: Value
        public var count: Int
    }

    /// One histogram bin: the values from `lower` up to `upper` — below it, or up to and
    /// including it for the last bin (`includesUpper`) — and how many rows have one.
    public struct Bin: Sendable, Hashable {
        public var lower: Value
        public var upper: Value
        public var includesUpper: Bool
        public var count: Int
    }

    /// How the histogram's bins are cut: equal widths for numbers, calendar units
    /// (UTC) for dates, chosen by the span so there are at most about 60 bins.
    public enum BinUnit: Sendable, Hashable {
        case width(Double)
        case day, week, month
        case years(Int)
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
    /// The sum, for numbers.
    public var sum: Double? = nil
    /// The sample standard deviation (n − 1), for numbers and dates (in seconds); nil below two values.
    public var standardDeviation: Double? = nil
    /// The quartiles of the non-null values, interpolated between neighbouring ranks
    /// (numpy's default): doubles for numbers, dates for dates.
    public var lowerQuartile: Value? = nil
    public var median: Value? = nil
    public var upperQuartile: Value? = nil
    /// For continuous numbers (floating point, decimal, or integers with many distinct
    /// values) and dates: every bin from the one holding `min` to the one holding `max`,
    /// empty ones included, in order. Empty for other attributes.
    public var histogram: [Bin] = []
    public var binUnit: BinUnit? = nil

    /// The non-null values counted.
    public var valueCount: Int { count - nulls }
}
