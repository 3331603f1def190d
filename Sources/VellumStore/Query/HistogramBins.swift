import Foundation

/// The boundaries of a column summary's histogram, chosen from the values' range
/// (`ColumnSummary.BinUnit`), and the SQL that files a value into its bin.
///
/// Numbers get about 10 bins of a "nice" width (1, 2, 2.5 or 5 × 10ⁿ, whole numbers
/// for integers) starting at a multiple of it; dates get days, Monday-based weeks,
/// months or runs of years (UTC), whichever gives at most about 60 bins. Boundaries are
/// computed here, exactly; SQL only compares with them, through a balanced `CASE`
/// (log₂ of the bin count comparisons per row), the same on SQLite and PostgreSQL.
struct HistogramBins: Equatable {
    let unit: ColumnSummary.BinUnit
    /// k + 1 ascending boundaries for k bins (seconds since 1970 for dates).
    let boundaries: [Double]

    var count: Int { boundaries.count - 1 }

    /// No histogram has more bins than this, whatever the values (a guard, not a choice).
    static let binLimit = 1_000

    /// The bins for values from `min` to `max` (both present, `min <= max`); nil when
    /// either is infinite (SQLite keeps `1e999` as infinity).
    static func numeric(min: Double, max: Double, integral: Bool) -> HistogramBins? {
        guard min.isFinite, max.isFinite, min <= max else { return nil }
        let span = max - min
        var width = niceWidth(span > 0 ? span / 10 : 1)
        if integral { width = Swift.max(1, width.rounded(.up)) }
        let start = (min / width).rounded(.down) * width
        var boundaries = [start]
        while (boundaries.last! <= max || boundaries.count < 2) && boundaries.count <= binLimit {
            boundaries.append(start + Double(boundaries.count) * width)
        }
        // The last bin includes its upper bound: a maximum on a boundary needs no bin of its own.
        if boundaries.count > 2, boundaries[boundaries.count - 2] == max { boundaries.removeLast() }
        return HistogramBins(unit: .width(width), boundaries: boundaries)
    }

    /// 1, 2, 2.5 or 5 × 10ⁿ, the smallest not below `raw`.
    static func niceWidth(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= raw * (1 - 1e-12) { return step * magnitude }
        return 10 * magnitude
    }

    static let utc: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        c.firstWeekday = 2   // ISO weeks start on Monday
        return c
    }()

    /// Calendar bins from the one holding `min` to the one holding `max`.
    static func dates(min: Date, max: Date) -> HistogramBins {
        let days = max.timeIntervalSince(min) / 86_400
        let c = utc
        let unit: ColumnSummary.BinUnit, step: DateComponents
        var start: Date
        if days <= 62 {
            (unit, start, step) = (.day, c.startOfDay(for: min), DateComponents(day: 1))
        } else if days <= 62 * 7 {
            (unit, start, step) = (.week, c.dateInterval(of: .weekOfYear, for: min)?.start ?? c.startOfDay(for: min), DateComponents(day: 7))
        } else if days <= 62 * 30.4 {
            (unit, start, step) = (.month, c.dateInterval(of: .month, for: min)?.start ?? c.startOfDay(for: min), DateComponents(month: 1))
        } else {
            let n = Swift.max(1, Int((days / 365.25 / 60).rounded(.up)))
            let year = c.component(.year, from: min)
            let first = c.date(from: DateComponents(year: year - ((year % n) + n) % n, month: 1, day: 1)) ?? c.startOfDay(for: min)
            (unit, start, step) = (.years(n), first, DateComponents(year: n))
        }
        var boundaries = [start.timeIntervalSince1970]
        while (boundaries.last! <= max.timeIntervalSince1970 || boundaries.count < 2) && boundaries.count <= binLimit {
            guard let next = c.date(byAdding: step, to: start) else { break }
            start = next
            boundaries.append(start.timeIntervalSince1970)
        }
        return HistogramBins(unit: unit, boundaries: boundaries)
    }

    /// The bin index (0-based) of `value`, an SQL expression of a number: a balanced CASE
    /// over the inner boundaries; values are within the range, so the ends need no test.
    func binExpression(_ value: String) -> String {
        func node(_ lo: Int, _ hi: Int) -> String {
            if lo == hi { return String(lo) }
            let mid = (lo + hi + 1) / 2
            return "CASE WHEN \(value) < \(Self.literal(boundaries[mid])) THEN \(node(lo, mid - 1)) ELSE \(node(mid, hi)) END"
        }
        return node(0, count - 1)
    }

    /// A double as SQL, exactly (17 significant digits round-trip).
    static func literal(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(format: "%.17g", d)
    }
}
