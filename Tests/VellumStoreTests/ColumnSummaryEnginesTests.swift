import Foundation
import Testing
@testable import VellumStore

/// `context.summarize` spells its SQL through the store's dialect (placeholders,
/// limit, averages, NULL ordering): a PostgreSQL store gives the summary SQLite gives.
@Suite struct ColumnSummaryEnginesTests {
    /// Products with ties, NULLs and every summarized kind: text, double, integer, date, boolean.
    static func seed(_ store: PersistentStore) throws {
        let c = try ManagedObjectContext(store: store)
        let rows: [(String, Double?, Int64, String?, Double?)] = [
            ("Anvil", 10, 3, "ABC-1", 1_700_000_000), ("Rope", 2, 3, nil, 1_700_000_000), ("Élan", 5, 0, "ABC-2", nil),
            ("Bolt", 2, 7, nil, 1_600_000_000), ("Nail", nil, 1, "ABC-1", 1_800_000_000), ("axe", 2.5, 3, nil, nil),
        ]
        for (name, price, stock, sku, added) in rows {
            _ = try c.insert("Product", values: [
                "name": .string(name), "price": price.map(Value.double) ?? .null, "stock": .integer(stock),
                "sku": sku.map(Value.string) ?? .null, "added": added.map { .date(Date(timeIntervalSince1970: $0)) } ?? .null,
                "active": .bool(stock > 0),
            ])
        }
        try c.save()
    }

    static func summaries(_ store: PersistentStore) throws -> [ColumnSummary] {
        let c = try ManagedObjectContext(store: store)
        let all = FetchRequest(entityName: "Product")
        let some = FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "stock >= 1"))
        return try ["name", "price", "stock", "sku", "added", "active"].map { try c.summarize(all, attribute: $0) }
            + [try c.summarize(all, attribute: "sku", limit: 2), try c.summarize(some, attribute: "price", limit: 3)]
    }

    @Test func aPostgreSQLStoreSummarizesAsSQLiteDoes() throws {
        let dir = TempDir()
        let sqlite = try Fixtures.openShop(dir)
        try Self.seed(sqlite)
        let url = try PostgreSQLShop.newStoreURL()
        let server = try PostgreSQLShop.open(url)
        try Self.seed(server)
        let expected = try Self.summaries(sqlite)
        #expect(expected[3].top.first == ColumnSummary.Bucket(value: .null, count: 3))
        #expect(expected[6].top.count == 2 && expected[2].mean == 17.0 / 6.0)
        let got = try Self.summaries(server)
        for (e, g) in zip(expected, got) { #expect(g == e, "\(e.attribute)") }
    }
}
