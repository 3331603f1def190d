import Foundation
import VellumStore
import VellumTerminal

/// The column summary overlay (`F`): statistics, then a table of the current column
/// over the current list, as computed by `context.summarize` — a histogram (bins) for
/// continuous numbers and dates, else the most frequent values. Enter on a row filters
/// the list by it: the bin's range, or the value.
public struct SummaryOverlay: Sendable, Equatable {
    /// What the store computed (rows are the current filter's matches).
    public let summary: ColumnSummary
    public let type: AttributeType
    /// Cursor over the table's rows (`rowCount`).
    public var cursor = 0

    /// The table's largest count, which every bar is scaled to (computed once, not per drawn line).
    private let largestCount: Int

    public init(_ summary: ColumnSummary, type: AttributeType) {
        self.summary = summary
        self.type = type
        largestCount = (summary.histogram.isEmpty ? summary.top.map(\.count) : summary.histogram.map(\.count)).max() ?? 1
    }

    public var column: String { summary.attribute }
    public var count: Int { summary.count }
    public var distinct: Int { summary.distinct }
    public var buckets: [ColumnSummary.Bucket] { summary.top }
    public var bins: [ColumnSummary.Bin] { summary.histogram }
    /// Bins when the store made a histogram, else the frequency table.
    public var showsHistogram: Bool { !bins.isEmpty }
    public var rowCount: Int { showsHistogram ? bins.count : buckets.count }

    /// Statistics lines shown above the table.
    public var statsLines: [String] {
        var lines = ["count \(count)   nulls \(summary.nulls)   distinct \(distinct)"]
        var parts: [String] = []
        if let min = summary.min { parts.append("min \(Self.text(min))") }
        if let max = summary.max { parts.append("max \(Self.text(max))") }
        if !parts.isEmpty { lines.append(parts.joined(separator: "   ")) }
        parts = []
        if let mean = summary.mean { parts.append("mean " + (type == .date ? Self.text(.date(Date(timeIntervalSince1970: mean))) : Self.number(mean))) }
        if let sum = summary.sum { parts.append("sum " + Self.number(sum)) }
        if let sd = summary.standardDeviation { parts.append("std dev " + (type == .date ? Self.duration(sd) : Self.number(sd))) }
        if !parts.isEmpty { lines.append(parts.joined(separator: "   ")) }
        if let median = summary.median {
            let quartiles = summary.lowerQuartile.flatMap { q1 in summary.upperQuartile.map { "quartiles \(statistic(q1)) – \(statistic($0))" } }
            // Dates are long: the quartiles get a line of their own.
            if type == .date {
                lines.append("median " + statistic(median))
                if let quartiles { lines.append(quartiles) }
            } else {
                lines.append((["median " + statistic(median)] + (quartiles.map { [$0] } ?? [])).joined(separator: "   "))
            }
        }
        return lines
    }

    /// A computed statistic: numbers to four significant digits, dates as the table shows them.
    private func statistic(_ v: Value) -> String {
        if case .double(let d) = v { return Self.number(d) }
        return Self.text(v)
    }

    /// Like the table's cell text (∅ for null, line breaks shown as ⏎); dates to the
    /// second (a mean or quartile of dates falls between seconds).
    static func text(_ v: Value) -> String {
        if case .date(let d) = v { return Value.iso8601(Date(timeIntervalSince1970: d.timeIntervalSince1970.rounded())) }
        return v.isNull ? "∅" : v.description.replacingOccurrences(of: "\n", with: "⏎")
    }

    /// Whole numbers in full, large ones to the cent (a sum of prices), others to four significant digits.
    static func number(_ d: Double) -> String {
        if d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
        if abs(d) >= 1000 && abs(d) < 1e15 { return String(format: "%.2f", d) }
        return String(format: "%.4g", d)
    }

    /// A spread of dates in the largest unit that keeps it above 1 (`3.2 days`, `5 h`).
    static func duration(_ seconds: Double) -> String {
        for (unit, size) in [("years", 365.25 * 86_400), ("days", 86_400.0), ("h", 3_600.0), ("min", 60.0)] where seconds >= size {
            return number(seconds / size) + " " + unit
        }
        return number(seconds) + " s"
    }

    /// Percent of the summarized rows (a bin: of the non-null values, which the bins hold), one decimal.
    public func percent(_ count: Int, of total: Int) -> String {
        total == 0 ? "0.0%" : String(format: "%.1f%%", Double(count) * 100 / Double(total))
    }

    public func percent(_ bucket: ColumnSummary.Bucket) -> String { percent(bucket.count, of: count) }

    /// The first column's heading.
    public var rowHeading: String { showsHistogram ? "bin" : "value" }

    /// One table line: value (or bin), count, percent, bar.
    public func line(_ i: Int, valueWidth: Int, barWidth: Int) -> String {
        let (label, n, pct): (String, Int, String)
        if showsHistogram {
            let b = bins[i]
            (label, n, pct) = (binLabel(b), b.count, percent(b.count, of: summary.valueCount))
        } else {
            let b = buckets[i]
            (label, n, pct) = (Self.text(b.value), b.count, percent(b))
        }
        let value = DisplayWidth.fit(label, toWidth: valueWidth)
        let countText = DisplayWidth.fit(String(n), toWidth: 8, alignment: .right)
        return value + " " + countText + " " + DisplayWidth.fit(pct, toWidth: 7, alignment: .right) + " " + Self.bar(n, of: largestCount, width: barWidth)
    }

    /// A bin as people read it: `[10, 20)` (the last `[90, 100]`), `2024-05-01`,
    /// `week of 2024-04-29`, `2024-05`, `2024`, `1899–1901`.
    public func binLabel(_ b: ColumnSummary.Bin) -> String {
        func day(_ v: Value, _ length: Int) -> String {
            guard case .date(let d) = v else { return Self.text(v) }
            return String(Value.iso8601(d).prefix(length))
        }
        switch summary.binUnit {
        case .day?: return day(b.lower, 10)
        case .week?: return "week of " + day(b.lower, 10)
        case .month?: return day(b.lower, 7)
        case .years(let n)?:
            guard n > 1, case .date(let end) = b.upper else { return day(b.lower, 4) }
            return day(b.lower, 4) + "–" + day(.date(end.addingTimeInterval(-1)), 4)
        case .width?, nil:
            let lower = b.lower.doubleValue.map(Self.number) ?? Self.text(b.lower)
            let upper = b.upper.doubleValue.map(Self.number) ?? Self.text(b.upper)
            return "[\(lower), \(upper)\(b.includesUpper ? "]" : ")")"
        }
    }

    /// What the footer says of the table: the bins' unit, or how many values it lists.
    public var tableNote: String {
        switch summary.binUnit {
        case .width(let w)?: return "  (\(bins.count) bins of \(Self.number(w)))"
        case .day?: return "  (by day, UTC)"
        case .week?: return "  (by week, UTC)"
        case .month?: return "  (by month, UTC)"
        case .years(let n)?: return n == 1 ? "  (by year, UTC)" : "  (by \(n) years, UTC)"
        case nil: return distinct > buckets.count ? "  (top \(buckets.count) of \(distinct))" : ""
        }
    }

    /// A bar of `width` cells at most, scaled to `max`, in eighths of a cell.
    public static func bar(_ value: Int, of max: Int, width: Int) -> String {
        guard max > 0, width > 0, value > 0 else { return "" }
        let eighths = Swift.max(1, Int((Double(value) / Double(max) * Double(width * 8)).rounded()))
        let partials: [Character] = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        var s = String(repeating: "█", count: eighths / 8)
        if eighths % 8 > 0 { s.append(partials[eighths % 8 - 1]) }
        return s
    }

    /// The filter selecting the row's values: a bin's range (`price >= 10 AND price < 20`,
    /// `<=` in the last bin), or the bucket's value (`column == value`, nil included).
    public func filterText(at i: Int) -> String? {
        if showsHistogram {
            guard bins.indices.contains(i) else { return nil }
            let b = bins[i]
            let from = Comparison(.key(column), .greaterOrEqual, .constant(b.lower))
            let to = Comparison(.key(column), b.includesUpper ? .lessOrEqual : .less, .constant(b.upper))
            return VellumStore.QueryPredicate.and(.comparison(from), .comparison(to)).description
        }
        guard buckets.indices.contains(i) else { return nil }
        let c = Comparison(.key(column), .equal, .constant(buckets[i].value))
        return VellumStore.QueryPredicate.comparison(c).description
    }
}
