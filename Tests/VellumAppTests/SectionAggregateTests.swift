import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17: `:group KEY sum(price)` shows a figure per section beside its count,
/// computed in SQL per group, kept up to date as other writers change rows.
@MainActor @Suite(.serialized) struct SectionAggregateTests {
    let snapshots = SnapshotTests()

    /// sqlite3's `SELECT key, figure … GROUP BY key`, as [section name: figure].
    func groups(_ url: URL, _ sql: String) throws -> [String: Double] {
        var out: [String: Double] = [:]
        for line in try sqliteText(url, sql).split(separator: "\n") {
            let parts = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            out[parts[0].isEmpty ? "∅" : parts[0]] = Double(parts[1])
        }
        return out
    }

    @Test func theStoreSumsAveragesAndCountsPerGroupAsSQLiteDoes() throws {
        let url = try SessionTests.makeStore()
        let container = try SessionTests.open(url)
        let request = FetchRequest(entityName: "Product")
        let sums = try container.viewContext.aggregate(request, .sum, of: "price", groupedBy: "provider.name")
        let expected = try groups(url, "SELECT v.name, sum(p.price) FROM Product p LEFT JOIN Provider v ON v._pk = p.provider GROUP BY v.name")
        #expect(sums.count == expected.count && !sums.isEmpty)
        for (name, value) in sums {
            let e = try #require(expected[name ?? "∅"], "\(name ?? "nil")")
            #expect(abs((value.doubleValue ?? .nan) - e) < 1e-6, "\(name ?? "nil"): \(value) vs \(e)")
        }
        let counts = try container.viewContext.aggregate(request, .count, of: nil, groupedBy: "provider.name")
        #expect(counts.values.compactMap(\.integerValue).reduce(0, +) == 200)
        // A filter applies; a key that is not a number is refused with the reason.
        var cheap = request
        cheap.predicate = try QueryPredicate(format: "price < 20")
        let avg = try container.viewContext.aggregate(cheap, .avg, of: "price", groupedBy: "provider.name")
        #expect(avg.values.allSatisfy { ($0.doubleValue ?? 99) < 20 })
        #expect(throws: StoreError.self) { try container.viewContext.aggregate(request, .sum, of: "name", groupedBy: "provider.name") }
    }

    /// Changes reach the figures (the sqlite3 shell's, through history, in the tmux test).
    @Test func eachSectionHeaderShowsItsFigureAndItFollowsChanges() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Product")
        try await snapshots.type(":group provider sum(stock)\r", into: s)
        #expect(s.state.statusMessage == "grouped by provider.name with sum(stock)", "\(s.state.statusMessage ?? "")")
        let first = try #require(s.state.sectionHeaders[0])
        let stock = try sqliteText(url, "SELECT sum(p.stock) FROM Product p JOIN Provider v ON v._pk = p.provider WHERE v.name = '\(first)'")
        #expect(await waitUntil { s.state.sectionFigures[first] == stock }, "\(s.state.sectionFigures)")
        try await snapshots.type("g", into: s)
        let title = s.state.tableLines(height: 3).compactMap { line -> String? in if case .header(let t) = line { return t } else { return nil } }.first
        #expect(title?.hasPrefix("\(first) (") == true && title?.hasSuffix(") · sum(stock) \(stock)") == true, "\(title ?? "no header")")
        // A write adds 1000 to a product of that section: the figure follows.
        let pk = Int64(try sqliteText(url, "SELECT p._pk FROM Product p JOIN Provider v ON v._pk = p.provider WHERE v.name = '\(first)' LIMIT 1"))!
        let id = try #require(s.rows?.rowIDs.first { $0.primaryKey == pk })
        try await s.container.enqueue { ctx in
            let p = try ctx.existingObject(with: id)
            try p.setValue(.integer(try p.value(forKey: "stock").integerValue! + 1000), forKey: "stock")
        }
        #expect(await waitUntil(timeout: 30) { s.state.sectionFigures[first] == String(Int(stock)! + 1000) }, "\(s.state.sectionFigures)")
    }

    @Test func anUnknownAggregateIsRefusedInTheLineAndTheGroupingStays() async throws {
        let url = try SessionTests.makeStore()
        let s = try await snapshots.session(url, entity: "Product")
        try await snapshots.type(":group provider total(price)\r", into: s)
        #expect(s.state.mode == .command && s.state.promptError?.contains("not an aggregate") == true, "\(s.state.promptError ?? "")")
        #expect(s.state.groupKey == nil && s.state.sectionHeaders.isEmpty)
    }
}
