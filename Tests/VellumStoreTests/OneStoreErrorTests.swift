import Foundation
import Testing
@testable import VellumStore

/// The store's public API throws one error type: a predicate, sort or results
/// controller that fails comes out as a `StoreError` case holding the nested
/// error, with the nested error's fields and its message unchanged.
@Suite struct OneStoreErrorTests {
    @Test func fetchWithAnUnknownKeyThrowsStoreErrorQuery() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let request = FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "pirce > 1"))
        let attempts: [() throws -> Void] = [{ _ = try ctx.fetch(request) }, { _ = try ctx.count(request) },
                                             { _ = try ctx.fetchObjectIDs(request) },
                                             { _ = try ctx.summarize(request, attribute: "price") }]
        for attempt in attempts {
            let error = try #require(throws: StoreError.self) { try attempt() }
            let nested = try #require(error.queryError, "\(error)")
            #expect(nested.message.contains("pirce"))
            #expect(error.description == nested.description)
        }
    }

    @Test func aResultsControllerQueryErrorIsStoreErrorQuery() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        let request = FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: "pirce > 1"),
                                   sortDescriptors: [QuerySortDescriptor("name")])
        let controller = ResultsController(fetchRequest: request, context: ctx)
        let error = try #require(throws: StoreError.self) { try controller.performFetch() }
        #expect(error.queryError != nil, "\(error)")
    }

    @Test func aPredicateOrSortSyntaxErrorIsStoreErrorParse() throws {
        let predicate = try #require(throws: StoreError.self) { try QueryPredicate(format: "price > AND name == 'x'") }
        let nested = try #require(predicate.parseError)
        #expect(nested.position == 8 && nested.expected == "a value, key or variable")
        #expect(predicate.description == "expected a value, key or variable at position 8, found 'AND'")
        let sort = try #require(throws: StoreError.self) { try QuerySortDescriptor.parseList("name,,price") }
        #expect(sort.parseError?.expected == "a key path to sort by")
    }

    @Test func nestedErrorsKeepTheirMessages() {
        let query = QueryError("Product has no property named 'pirce'")
        #expect(StoreError.query(query).description == query.description)
        #expect(StoreError.model(.inheritanceCycle(entity: "A")).description == "entity A: inheritance cycle")
        #expect(StoreError.results(.missingSortDescriptors).description == "a results controller needs at least one sort descriptor")
        #expect(ErrorText.describe(StoreError.query(query)) == ErrorText.describe(query))
    }
}
