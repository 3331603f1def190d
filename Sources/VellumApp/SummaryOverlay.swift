import Foundation
import VellumStore
import VellumTerminal

/// The column summary overlay (`F`): statistics and a frequency table of the
/// current column over the current list, as computed by `context.summarize`.
public struct SummaryOverlay: Sendable, Equatable {
    /// What the store computed (rows are the current filter's matches).
    public let summary: ColumnSummary
    public let type: AttributeType
    /// Cursor over `buckets`.
    public var cursor = 0

    public init(_ summary: ColumnSummary, type: AttributeType) {
        self.summary = summary
        self.type = type
    }

    public var column: String { summary.attribute }
    public var count: Int { summary.count }
    public var distinct: Int { summary.distinct }
    public var buckets: [ColumnSummary.Bucket] { summary.top }

    /// Statistics lines shown above the frequency table.
    public var statsLines: [String] {
        var lines = ["count \(count)   nulls \(summary.nulls)   distinct \(distinct)"]
        var parts: [String] = []
        if let min = summary.min { parts.append("min \(Self.text(min))") }
        if let max = summary.max { parts.append("max \(Self.text(max))") }
        if !parts.isEmpty { lines.append(parts.joined(separator: "   ")) }
        if let mean = summary.mean {
            lines.append("mean " + (type == .date ? Value.iso8601(Date(timeIntervalSince1970: mean)) : Self.number(mean)))
        }
        return lines
    }

    /// Like the table's cell text (∅ for null, line breaks shown as ⏎).
    static func text(_ v: Value) -> String {
        v.isNull ? "∅" : v.description.replacingOccurrences(of: "\n", with: "⏎")
    }

    static func number(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(format: "%.4g", d)
    }

    /// Percent of the summarized rows, one decimal.
    public func percent(_ bucket: ColumnSummary.Bucket) -> String {
        count == 0 ? "0.0%" : String(format: "%.1f%%", Double(bucket.count) * 100 / Double(count))
    }

    /// One frequency table line: value, count, percent, bar.
    public func line(_ i: Int, valueWidth: Int, barWidth: Int) -> String {
        let b = buckets[i]
        let maxCount = buckets.map(\.count).max() ?? 1
        let value = DisplayWidth.fit(Self.text(b.value), toWidth: valueWidth)
        let countText = DisplayWidth.fit(String(b.count), toWidth: 8, alignment: .right)
        let pct = DisplayWidth.fit(percent(b), toWidth: 7, alignment: .right)
        return value + " " + countText + " " + pct + " " + Self.bar(b.count, of: maxCount, width: barWidth)
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

    /// The filter selecting the rows with the bucket's value (`column == value`, nil included).
    public func filterText(at i: Int) -> String? {
        guard buckets.indices.contains(i) else { return nil }
        let c = Comparison(.key(column), .equal, .constant(buckets[i].value))
        return VellumStore.QueryPredicate.comparison(c).description
    }
}
