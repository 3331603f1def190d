import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// A filter typed over a relationship list is combined with the list's restriction
/// as a predicate value (`QueryPredicate.and`), never by printing and re-parsing text:
/// whatever the user's filter holds, it applies, or the prompt says why not.
@MainActor @Suite(.serialized) struct FilterCompositionTests {
    /// The products of the first provider, reached by relationship navigation.
    func productsOfFirstProvider() async throws -> (BrowserSession, ObjectID) {
        let s = try await SessionLiveTests().session("Provider")
        let provider = try #require(s.rows).object(at: 0)
        await s.handle(.tab); await s.handle(.char("j")); await s.handle(.char("j"))   // products
        await s.handle(.enter)
        #expect(s.state.navigationTitle?.hasPrefix("products of") == true)
        return (s, provider.objectID)
    }

    func filter(_ s: BrowserSession, _ text: String) async {
        await s.handle(.char("/"))
        for c in text { await s.handle(.char(c)) }
        await s.handle(.enter)
    }

    /// How many of the provider's products `where` keeps, fetched straight from the store.
    func expected(_ s: BrowserSession, provider: ObjectID, where filter: String) throws -> Int {
        let pk = try #require(provider.primaryKey)
        let user = try VellumStore.QueryPredicate(format: filter)
        return try s.context.count(FetchRequest(entityName: "Product",
                                                predicate: .and(try VellumStore.QueryPredicate(format: "provider == \(pk)"), user)))
    }

    /// A filter as deeply nested as the parser accepts was dropped silently: the
    /// combined text nested one level deeper, failed to parse, and the list showed
    /// every product of the provider under the user's filter. Now it either filters
    /// or the prompt stays open saying why, with the list as it was.
    @Test func deeplyNestedFilterOnARelationshipListIsNotDropped() async throws {
        let (s, provider) = try await productsOfFirstProvider()
        let all = s.state.rowCount
        let names = try s.context.existingObject(with: provider).toMany("products").map { try $0.value(forKey: "name").stringValue ?? "" }
        let want = names.filter { $0.contains("Kettle") }.count     // an even number of NOTs changes nothing
        #expect(want < all)
        let text = String(repeating: "NOT ", count: 200) + "name CONTAINS 'Kettle'"
        await filter(s, text)
        if s.state.filterText == text {
            #expect(s.state.mode == .browse)
            #expect(s.state.rowCount == want)
        } else {
            #expect(s.state.mode == .filter)
            #expect(s.state.promptError != nil)
            #expect(s.state.rowCount == all)
        }
    }

    /// Quotes, `AND` inside a string, and a keyword-named key survive composition.
    @Test func filterWithQuotesAndKeywordsOnARelationshipList() async throws {
        let (s, provider) = try await productsOfFirstProvider()
        let text = #"name CONTAINS "Kettle" OR name == 'a " AND b' OR (price > 10 AND sku != "x')")"#
        await filter(s, text)
        #expect(s.state.filterText == text)
        #expect(s.state.rowCount == (try expected(s, provider: provider, where: text)))
        // Back and forward again: the list's restriction is kept as a value too.
        await s.handle(.backspace)
        #expect(s.state.currentEntityName == "Provider")
    }
}
