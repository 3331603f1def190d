import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// The summary's one grouped pass (distinct count, most frequent values, quartiles by
/// rank) against the same figures computed here in Swift from the values stored, on
/// seeded random columns with many repeated values and NULLs.
@Suite struct ColumnSummarySinglePassTests {
    /// Most frequent first, ties by value ascending (NULL first), as SQL ordered them before.
    static func top(_ values: [Value], limit: Int, less: (Value, Value) -> Bool) -> [ColumnSummary.Bucket] {
        var counts: [Value: Int] = [:]
        for v in values { counts[v, default: 0] += 1 }
        let ordered = counts.sorted { a, b in
            if a.value != b.value { return a.value > b.value }
            if a.key.isNull != b.key.isNull { return a.key.isNull }
            return less(a.key, b.key)
        }
        return ordered.prefix(limit).map { ColumnSummary.Bucket(value: $0.key, count: $0.value) }
    }

    @Test(arguments: [11, 12, 13, 14, 15, 16, 17, 18])
    func randomColumnsMatchACountInSwift(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let n = Int.random(in: 1...500, using: &rng)
        let spread = [1, 3, 20, 100, 1000][Int(seed) % 5]
        var stocks: [Value] = [], skus: [Value] = [], prices: [Value] = []
        for i in 0..<n {
            let stock = Int64.random(in: 0..<Int64(spread), using: &rng) - Int64(spread / 3)
            let sku: Value = Int.random(in: 0..<6, using: &rng) == 0 ? .null : .string("ABC-\(Int.random(in: 0..<spread, using: &rng))")
            let price: Value = Int.random(in: 0..<5, using: &rng) == 0 ? .null : .double(Double(Int.random(in: 0..<spread, using: &rng)) / 4)
            try ctx.insert("Product", values: ["name": .string("p\(i)"), "stock": .integer(stock), "sku": sku, "price": price])
            stocks.append(.integer(stock)); skus.append(sku); prices.append(price)
        }
        try ctx.save()
        let all = FetchRequest(entityName: "Product")
        let limit = [1, 5, 50][Int(seed) % 3]

        let s = try ctx.summarize(all, attribute: "stock", limit: limit)
        #expect(s.distinct == Set(stocks).count, "seed \(seed)")
        #expect(s.top == Self.top(stocks, limit: limit) { $0.integerValue! < $1.integerValue! }, "seed \(seed)")
        let sortedStocks = stocks.compactMap(\.doubleValue).sorted()
        for (q, f) in [(s.lowerQuartile, 0.25), (s.median, 0.5), (s.upperQuartile, 0.75)] {
            #expect(ColumnSummaryDistributionTests.close(q?.doubleValue, ColumnSummaryDistributionTests.quantile(sortedStocks, f)),
                    "seed \(seed): quantile \(f)")
        }

        let k = try ctx.summarize(all, attribute: "sku", limit: limit)
        #expect(k.distinct == Set(skus.filter { !$0.isNull }).count, "seed \(seed)")
        #expect(k.nulls == skus.filter(\.isNull).count)
        #expect(k.top == Self.top(skus, limit: limit) { Array($0.stringValue!.utf8).lexicographicallyPrecedes(Array($1.stringValue!.utf8)) },
                "seed \(seed)")

        let p = try ctx.summarize(all, attribute: "price", limit: limit)
        let present = prices.filter { !$0.isNull }
        #expect(p.distinct == Set(present).count, "seed \(seed)")
        #expect(p.top == Self.top(prices, limit: limit) { $0.doubleValue! < $1.doubleValue! }, "seed \(seed)")
        if !present.isEmpty {
            let sorted = present.compactMap(\.doubleValue).sorted()
            #expect(ColumnSummaryDistributionTests.close(p.median?.doubleValue, ColumnSummaryDistributionTests.quantile(sorted, 0.5)), "seed \(seed)")
            try ColumnSummaryDistributionTests.checkHistogram(p.histogram, values: sorted, seed: seed)
        }
    }

    /// The kept buckets of a pass whose counts only grow (each group displaces the weakest).
    @Test func theTopKeepsTheMostFrequentInArrivalOrderOfTies() {
        var top = TopBuckets(limit: 3)
        for (v, n) in [(1, 1), (2, 5), (3, 1), (4, 5), (5, 2), (6, 7), (7, 5)] where top.admits(n) {
            top.add(.integer(Int64(v)), count: n)
        }
        #expect(top.buckets.map(\.value) == [.integer(6), .integer(2), .integer(4)])
        #expect(!TopBuckets(limit: 0).admits(10))
    }
}
