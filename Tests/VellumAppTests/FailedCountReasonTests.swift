import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// A relationship count that fails shows why, not a bare ⚠.
@MainActor @Suite(.serialized) struct FailedCountReasonTests {
    @Test func aFailedRelationshipCountShowsItsReason() async throws {
        let url = try SessionTests.makeStore()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let session = BrowserSession(container: try SessionTests.open(url))
        session.setLayout(Layout(size: TerminalSize(rows: 40, columns: 120)))
        for c in ":goto Provider" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect((session.rows?.count ?? 0) >= 2, "two providers to move between")
        // Another program takes the related table away while the browser shows a provider;
        // the next provider's count then fails.
        #expect(try runSQLite(url.path, "ALTER TABLE Product RENAME TO Product_away;").status == 0)
        await session.handle(.char("j"))
        let next = try #require(session.rows?.id(at: 1))
        #expect(await waitUntil { session.relatedCounts.failure(of: next, "products") != nil })
        let model = ViewModel.build(state: session.state, layout: session.state.layout!, fileName: "f", entity: session.entity,
                                    rows: session.rows, entityCounts: session.entityCounts, relatedCounts: session.relatedCounts,
                                    pendingWrites: 0)
        let products = try #require(model.detail?.fields.first { $0.name == "products" })
        #expect(products.value.hasPrefix("[⚠ "), "\(products.value)")
        #expect(products.value.contains("Product"), "the reason is shown: \(products.value)")
    }
}
