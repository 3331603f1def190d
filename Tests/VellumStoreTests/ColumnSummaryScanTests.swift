import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// Numeric columns are summarized from one unsorted scan, sorted in memory
/// (`SortedNumbers`): the figures equal the SQL passes' (`numbersHeldAtMost: 0`), and
/// values that are not numbers, or too many of them, go back to the SQL passes.
@Suite struct ColumnSummaryScanTests {
    static func expectSame(_ a: ColumnSummary, _ b: ColumnSummary, _ label: String) {
        #expect(a.count == b.count && a.nulls == b.nulls && a.distinct == b.distinct, "\(label): counts")
        #expect(a.top == b.top, "\(label): most frequent")
        #expect(a.min == b.min && a.max == b.max, "\(label): range \(String(describing: a.min))…\(String(describing: a.max))")
        #expect(a.lowerQuartile == b.lowerQuartile && a.median == b.median && a.upperQuartile == b.upperQuartile, "\(label): quartiles")
        #expect(a.histogram == b.histogram && a.binUnit == b.binUnit, "\(label): histogram")
        for (x, y, what) in [(a.mean, b.mean, "mean"), (a.sum, b.sum, "sum"), (a.standardDeviation, b.standardDeviation, "deviation")] {
            if let y { #expect(ColumnSummaryDistributionTests.close(x, y), "\(label): \(what) \(String(describing: x)) vs \(y)") } else { #expect(x == nil, "\(label): \(what)") }
        }
    }

    @Test(arguments: [21, 22, 23, 24, 25, 26] as [UInt64])
    func theScanGivesTheFiguresOfTheSQLPasses(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let n = Int.random(in: 0...600, using: &rng)
        let spread = [2, 15, 200, 30_000][Int(seed) % 4]
        for i in 0..<n {
            let nullish = Int.random(in: 0..<6, using: &rng) == 0
            let stock = Int64.random(in: -Int64(spread)...Int64(spread), using: &rng)
            let price: Value = nullish ? .null : .double(Double(Int.random(in: 0...spread, using: &rng)) / 8)
            let added: Value = nullish ? .null : .date(Date(timeIntervalSince1970: 1_600_000_000 + Double(Int.random(in: 0...spread, using: &rng)) * 3_600))
            try ctx.insert("Product", values: ["name": .string("p\(i)"), "stock": .integer(min(stock, 32_000)), "price": price,
                                               "added": added, "active": .bool(Bool.random(using: &rng))])
        }
        try ctx.save()
        let requests = [FetchRequest(entityName: "Product"),
                        FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "stock >= 0"))]
        for request in requests {
            for attribute in ["stock", "price", "added", "active"] {
                let limit = [1, 3, 50][Int.random(in: 0..<3, using: &rng)]
                let scanned = try ctx.summarize(request, attribute: attribute, limit: limit)
                let inSQL = try ctx.summarize(request, attribute: attribute, limit: limit, numbersHeldAtMost: 0)
                Self.expectSame(scanned, inSQL, "seed \(seed) \(attribute) \(request.predicate.map { "\($0)" } ?? "all")")
            }
        }
    }

    /// More values than may be held: the SQL passes summarize them, with the same figures.
    @Test func tooManyValuesToHoldAreSummarizedInSQL() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        for i in 0..<40 { try ctx.insert("Product", values: ["name": .string("p\(i)"), "stock": .integer(Int64(i % 7))]) }
        try ctx.save()
        let all = FetchRequest(entityName: "Product")
        let few = try ctx.summarize(all, attribute: "stock", limit: 5, numbersHeldAtMost: 10)
        Self.expectSame(few, try ctx.summarize(all, attribute: "stock", limit: 5), "stock")
        #expect(few.distinct == 7 && few.median == .double(3))
    }

    /// Another program's text in an INTEGER column (SQLite keeps it as text): the scan
    /// gives up on it, and the SQL passes show it among the values, as before.
    @Test func aTextValueInAnIntegerColumnIsSummarizedInSQL() throws {
        let dir = TempDir()
        let (store, _) = try ForeignGeneratedTests.make(dir, "CREATE TABLE item (id INTEGER PRIMARY KEY, qty INTEGER); INSERT INTO item (qty) VALUES (3), (3), ('lots'), (5), (NULL);")
        let ctx = try ManagedObjectContext(store: store)
        let s = try ctx.summarize(FetchRequest(entityName: "item"), attribute: "qty")
        #expect(s.count == 5 && s.nulls == 1 && s.distinct == 3)
        #expect(s.top.first == ColumnSummary.Bucket(value: .integer(3), count: 2))
        #expect(s.top.contains { $0.value == .string("lots") }, "\(s.top)")
        Self.expectSame(s, try ctx.summarize(FetchRequest(entityName: "item"), attribute: "qty", limit: 50, numbersHeldAtMost: 0), "qty")
    }
}
