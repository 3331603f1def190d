import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: relationship columns in the real binary at 80×24 and 120×40 — a to-one
/// shows its target's name and sorts by it, a to-many shows its count, sorts and
/// filters by it, and follows another process writing with the sqlite3 shell.
@Suite("E2E relationship columns", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ERelationshipColumnsTests {
    static let sizes = [(80, 24), (120, 40)]

    /// The first table row (the line under the header), table part only.
    func firstRow(_ t: Tmux) -> String {
        let lines = t.screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count > 1, let bar = lines[1].firstIndex(of: "│") else { return "" }
        let table = lines[1][lines[1].index(after: bar)...]
        return String(table.prefix { $0 != "│" })
    }

    static let countSQL = "(SELECT count(*) FROM Product p WHERE p.provider = v._pk)"

    @Test(arguments: sizes)
    func aToManyCountSortsFiltersAndFollowsAnotherWriter(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Provider", width: width, height: height)
        defer { t.kill() }
        t.keys("$", "S")
        #expect(t.wait(for: "sort: products.@count ▼"), "\(t.screen)")
        #expect(t.screen.contains("products ▼"), "\(t.screen)")
        let top = store.sql("SELECT v.name || '|' || \(Self.countSQL) FROM Provider v ORDER BY \(Self.countSQL) DESC, v._pk LIMIT 1").split(separator: "|")
        #expect(t.wait { _ in firstRow(t).contains(String(top[0])) && firstRow(t).contains(" \(top[1])") }, "\(t.screen)")

        // Another process gives the provider with the fewest products 40 more: it moves to the top.
        let last = store.sql("SELECT v._pk || '|' || v.name FROM Provider v ORDER BY \(Self.countSQL), v._pk DESC LIMIT 1").split(separator: "|")
        let total = Int(store.sql("SELECT \(Self.countSQL) FROM Provider v WHERE v._pk = \(last[0])"))! + 40
        _ = store.sql("""
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 40)
            INSERT INTO Product (_entity, name, provider) SELECT 'Product', 'Bulk ' || i, \(last[0]) FROM n;
            """)
        #expect(t.wait { _ in firstRow(t).contains(String(last[1])) && firstRow(t).contains(" \(total)") }, "\(t.screen)")

        // Filtering by the count: as many rows as sqlite3 finds.
        t.keys("/"); t.type("products.@count > 20"); t.keys("Enter")
        let matching = store.sql("SELECT count(*) FROM Provider v WHERE \(Self.countSQL) > 20")
        #expect(t.wait(for: "row 1/\(matching) "), "\(t.screen)")
        #expect(Int(matching)! > 0)
    }

    @Test(arguments: sizes)
    func aToOneColumnShowsTheTargetsNameAndSortsByIt(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.keys("$", "h", "s")
        #expect(t.wait(for: "sort: provider.name ▲"), "\(t.screen)")
        // The selection stays on its record; at the top is the first provider by name.
        t.keys("g")
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        let first = store.sql("SELECT v.name FROM Product p JOIN Provider v ON v._pk = p.provider ORDER BY v.name, p._pk LIMIT 1")
        #expect(t.wait { _ in firstRow(t).contains(first) }, "\(t.screen)")
        // Renaming the provider elsewhere renames it in the column.
        _ = store.sql("UPDATE Provider SET name = 'Renamed Elsewhere', _version = _version + 1 WHERE name = '\(first)'")
        #expect(t.wait { _ in t.screen.contains("Renamed Elsewhere") }, "\(t.screen)")
        // Enter on the cell goes to the provider.
        t.keys("Enter")
        #expect(t.wait(for: "│ Provider │"), "\(t.screen)")
        #expect(t.wait(for: "provider of "), "\(t.screen)")
    }
}
