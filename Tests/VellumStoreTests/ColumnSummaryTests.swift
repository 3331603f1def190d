import Foundation
import Testing
@testable import VellumStore

@Suite struct ColumnSummaryTests {
    @Test func frequenciesAndStatisticsInSQL() throws {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let prices: [Double?] = [1, 2, 2, 3, 3, 3, nil]
        for (i, p) in prices.enumerated() {
            try ctx.insert("Product", values: ["name": .string("p\(i)"), "price": p.map(Value.double) ?? .null])
        }
        try ctx.save()
        let s = try ctx.summarize(FetchRequest(entityName: "Product"), attribute: "price")
        #expect(s.count == 7 && s.nulls == 1 && s.distinct == 3)
        #expect(s.min == .double(1) && s.max == .double(3))
        #expect(s.mean == 14.0 / 6.0)
        #expect(s.top.map(\.count) == [3, 2, 1, 1])
        #expect(s.top.first?.value == .double(3))
        let filtered = try ctx.summarize(FetchRequest(entityName: "Product", predicate: try VellumStore.QueryPredicate(format: "price < 3")), attribute: "price")
        #expect(filtered.count == 3 && filtered.top.first?.value == .double(2))
        let names = try ctx.summarize(FetchRequest(entityName: "Product"), attribute: "name", limit: 2)
        #expect(names.top.count == 2 && names.min == nil)
        #expect(throws: StoreError.self) { try ctx.summarize(FetchRequest(entityName: "Product"), attribute: "nope") }
    }
}
