import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// Sum, quartiles, standard deviation and histograms of `context.summarize`, each
/// checked against the same figures computed here in Swift from the values stored.
@Suite struct ColumnSummaryDistributionTests {
    /// numpy's default quantile: linear between the ranks around (n − 1)·p.
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        let h = Double(sorted.count - 1) * p
        let lo = Int(h.rounded(.down)), hi = Int(h.rounded(.up))
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (h - Double(lo))
    }

    static func sampleDeviation(_ xs: [Double]) -> Double {
        let mean = xs.reduce(0, +) / Double(xs.count)
        return (xs.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(xs.count - 1)).squareRoot()
    }

    static func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance * Swift.max(1, abs(b))
    }

    /// Seeded: random prices (with NULLs) and dates over a random span, summarized and compared.
    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func randomColumnsMatchTheFiguresComputedInSwift(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let n = Int.random(in: 2...400, using: &rng)
        let spanDays = [1.0, 40, 300, 1500, 40_000][Int(seed) % 5]
        var prices: [Double] = [], dates: [Double] = [], stocks: [Double] = []
        for i in 0..<n {
            let price: Double? = Int.random(in: 0..<8, using: &rng) == 0 ? nil : (Double.random(in: 0...1000, using: &rng) * 100).rounded() / 100
            let added = 1_600_000_000 + Double.random(in: 0...(spanDays * 86_400), using: &rng).rounded()
            let stock = Int64.random(in: -50...500, using: &rng)
            try ctx.insert("Product", values: ["name": .string("p\(i)"), "price": price.map(Value.double) ?? .null,
                                               "added": .date(Date(timeIntervalSince1970: added)), "stock": .integer(stock)])
            if let price { prices.append(price) }
            dates.append(added)
            stocks.append(Double(stock))
        }
        try ctx.save()
        let all = FetchRequest(entityName: "Product")

        let p = try ctx.summarize(all, attribute: "price")
        prices.sort()
        #expect(p.valueCount == prices.count)
        #expect(Self.close(p.sum, prices.reduce(0, +)))
        if prices.count > 1 { #expect(Self.close(p.standardDeviation, Self.sampleDeviation(prices)), "seed \(seed)") }
        for (q, f) in [(p.lowerQuartile, 0.25), (p.median, 0.5), (p.upperQuartile, 0.75)] where !prices.isEmpty {
            #expect(Self.close(q?.doubleValue, Self.quantile(prices, f)), "seed \(seed): quantile \(f)")
        }
        try Self.checkHistogram(p.histogram, values: prices, seed: seed)
        if case .width(let w)? = p.binUnit { #expect(p.histogram.count <= 11 && w > 0) }

        let d = try ctx.summarize(all, attribute: "added")
        dates.sort()
        #expect(d.sum == nil, "dates have no sum")
        #expect(Self.close(d.standardDeviation, Self.sampleDeviation(dates)), "seed \(seed)")
        #expect(Self.close(d.median?.doubleValue, Self.quantile(dates, 0.5)))
        if case .date = d.median {} else { Issue.record("a date's median is a date: \(String(describing: d.median))") }
        try Self.checkHistogram(d.histogram, values: dates, seed: seed)
        #expect(d.histogram.count <= 63, "at most about 60 bins: \(d.histogram.count) (\(String(describing: d.binUnit)))")

        // Integers with many distinct values are binned too, on whole-number boundaries.
        let s = try ctx.summarize(all, attribute: "stock")
        stocks.sort()
        #expect(Self.close(s.median?.doubleValue, Self.quantile(stocks, 0.5)))
        if s.distinct > 20 {
            try Self.checkHistogram(s.histogram, values: stocks, seed: seed)
            #expect(s.histogram.allSatisfy { ($0.lower.doubleValue ?? 0).rounded() == $0.lower.doubleValue })
        } else {
            #expect(s.histogram.isEmpty)
        }
    }

    /// Bins are contiguous, in order, cover every value, and count what a scan counts.
    static func checkHistogram(_ bins: [ColumnSummary.Bin], values: [Double], seed: UInt64) throws {
        try #require(!bins.isEmpty, "seed \(seed): no histogram")
        for (a, b) in zip(bins, bins.dropFirst()) { #expect(a.upper == b.lower && !a.includesUpper) }
        #expect(bins.last?.includesUpper == true)
        #expect(bins.map(\.count).reduce(0, +) == values.count, "seed \(seed): every value in one bin")
        for bin in bins {
            let lo = bin.lower.doubleValue!, hi = bin.upper.doubleValue!
            let expected = values.filter { $0 >= lo && ($0 < hi || (bin.includesUpper && $0 == hi)) }.count
            #expect(bin.count == expected, "seed \(seed): bin [\(lo), \(hi)) counted \(bin.count), a scan finds \(expected)")
        }
        #expect(bins.first!.lower.doubleValue! <= values.first! && values.last! <= bins.last!.upper.doubleValue!)
    }

    @Test func datesAreBinnedByCalendarDaysWeeksMonthsOrYearsInUTC() throws {
        func bins(_ from: String, _ to: String) -> HistogramBins {
            let f = ISO8601DateFormatter()
            return HistogramBins.dates(min: f.date(from: from)!, max: f.date(from: to)!)
        }
        func day(_ t: Double) -> String { ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: t)) }
        let days = bins("2024-05-01T13:00:00Z", "2024-05-03T01:00:00Z")
        #expect(days.unit == .day && days.boundaries.map(day) == ["2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z", "2024-05-03T00:00:00Z", "2024-05-04T00:00:00Z"])
        let weeks = bins("2024-05-01T00:00:00Z", "2024-07-20T00:00:00Z")   // a Wednesday: its week starts Monday 29 April
        #expect(weeks.unit == .week && day(weeks.boundaries[0]) == "2024-04-29T00:00:00Z")
        let months = bins("2024-01-15T00:00:00Z", "2025-06-02T00:00:00Z")   // more than 62 weeks
        #expect(months.unit == .month && months.boundaries.map(day).first == "2024-01-01T00:00:00Z" && months.count == 18)
        let years = bins("1901-06-01T00:00:00Z", "2024-06-01T00:00:00Z")
        #expect(years.unit == .years(3) && day(years.boundaries[0]) == "1899-01-01T00:00:00Z" && years.count <= 42)
    }

    @Test func numberBinsHaveNiceWidthsAndTheMaximumIsInTheLastBin() throws {
        let b = try #require(HistogramBins.numeric(min: 3, max: 97, integral: false))
        #expect(b.unit == .width(10) && b.boundaries == [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100])
        let exact = try #require(HistogramBins.numeric(min: 0, max: 100, integral: false))
        #expect(exact.boundaries.last == 100 && exact.count == 10, "100 is in [90, 100], not a bin of its own")
        let one = try #require(HistogramBins.numeric(min: 4.5, max: 4.5, integral: false))
        #expect(one.count == 1 && one.boundaries[0] <= 4.5 && 4.5 <= one.boundaries[1])
        #expect(HistogramBins.numeric(min: 0, max: 7, integral: true)?.unit == .width(1))
        // Infinity (SQLite stores 1e999 as it): no histogram, rather than bins without end.
        #expect(HistogramBins.numeric(min: 0, max: .infinity, integral: false) == nil)
        #expect(HistogramBins.numeric(min: -.infinity, max: 1, integral: false) == nil)
        let huge = try #require(HistogramBins.numeric(min: -1e300, max: 1e300, integral: false))
        #expect(huge.count <= 11)
        #expect(HistogramBins.niceWidth(0.23) == 0.25 && HistogramBins.niceWidth(3) == 5 && HistogramBins.niceWidth(0.0009) == 0.001)
    }

    /// Regression: another program's dates stored as text (Chinook's `InvoiceDate`) were
    /// averaged as text (a 1970 mean, a deviation of a second); they are dates in seconds,
    /// through the layout, and the month bins count what sqlite3 counts.
    @Test func aForeignTextDateColumnIsSummarizedAsDatesNotText() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let store = try PersistentStore.openAny(url: copy, model: nil, options: StoreOptions(createIfMissing: false, readOnly: true))
        let ctx = try ManagedObjectContext(store: store)
        let s = try ctx.summarize(FetchRequest(entityName: "Invoice"), attribute: "InvoiceDate")
        let f = ISO8601DateFormatter()
        #expect(s.min == .date(f.date(from: "2021-01-01T00:00:00Z")!), "\(String(describing: s.min))")
        let mean = try #require(s.mean)
        #expect(mean > f.date(from: "2021-01-01T00:00:00Z")!.timeIntervalSince1970 && mean < f.date(from: "2026-01-01T00:00:00Z")!.timeIntervalSince1970)
        #expect((s.standardDeviation ?? 0) > 86_400 * 30, "a spread of years, not seconds: \(String(describing: s.standardDeviation))")
        #expect(s.binUnit == .month)
        #expect(s.histogram.map(\.count).reduce(0, +) == 412)
        let february = try #require(s.histogram.first { $0.lower == .date(f.date(from: "2021-02-01T00:00:00Z")!) })
        #expect(String(february.count) == (try sqliteOutput(copy.path, "SELECT count(*) FROM Invoice WHERE InvoiceDate >= '2021-02-01' AND InvoiceDate < '2021-03-01'")))
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }

    /// An infinite price (SQLite keeps `1e999` as infinity) gives statistics and no
    /// histogram, and the summary returns: the bins loop once never ended on it.
    @Test func anInfiniteValueGivesNoHistogramAndTheSummaryReturns() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Product", values: ["name": .string("a"), "price": .double(1)])
        try ctx.insert("Product", values: ["name": .string("b"), "price": .double(2)])
        try ctx.save()
        #expect(try sqliteShell(dir.path("shop.sqlite"), "UPDATE Product SET price = 1e999 WHERE name = 'b'") == 0)
        let s = try ManagedObjectContext(store: store).summarize(FetchRequest(entityName: "Product"), attribute: "price")
        #expect(s.max == .double(.infinity) && s.histogram.isEmpty && s.median != nil)
    }

    @Test func textAndBooleansHaveNoDistributionAndOneValueHasNoDeviation() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        try ctx.insert("Product", values: ["name": .string("only"), "price": .double(2.5)])
        try ctx.save()
        let all = FetchRequest(entityName: "Product")
        let name = try ctx.summarize(all, attribute: "name")
        #expect(name.sum == nil && name.median == nil && name.histogram.isEmpty && name.standardDeviation == nil)
        let active = try ctx.summarize(all, attribute: "active")
        #expect(active.histogram.isEmpty && active.median == nil)
        let price = try ctx.summarize(all, attribute: "price")
        #expect(price.median == .double(2.5) && price.standardDeviation == nil && price.sum == 2.5)
        #expect(price.histogram.map(\.count) == [1])
    }
}
