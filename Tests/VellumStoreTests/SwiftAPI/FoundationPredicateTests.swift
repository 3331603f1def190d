import Foundation
import Testing
@testable import VellumStore

/// Issue 16: Foundation's `#Predicate` over generated types gives the same predicate
/// tree as the string syntax; what Vellum cannot run is refused, named.
@Suite struct FoundationPredicateTests {
    func same(_ predicate: Foundation.Predicate<Book>, _ format: String) throws {
        #expect(try TypedPredicate(predicate).predicate() == VellumStore.QueryPredicate(format: format), "\(format)")
    }

    @Test func comparisonsAndConnectivesAreTheStringSyntaxsTree() throws {
        try same(#Predicate<Book> { $0.price < 5.5 }, "price < 5.5")
        try same(#Predicate<Book> { $0.copies >= 3 }, "copies >= 3")
        try same(#Predicate<Book> { 2 < $0.copies }, "2 < copies")
    }

    @Test func optionalChainingThroughAToOneAndNilChecksOfAttributes() throws {
        try same(#Predicate<Book> { $0.author?.name == "Le Guin" }, "author.name == 'Le Guin'")
        try same(#Predicate<Book> { $0.published != nil }, "published != nil")
        try same(#Predicate<Book> { $0.pages == nil }, "pages == nil")
    }

    @Test func connectivesAndStringOperators() throws {
        try same(#Predicate<Book> { $0.title == "Dune" || !($0.copies >= 3) }, "title == 'Dune' OR NOT copies >= 3")
        try same(#Predicate<Book> { $0.copies > 100 && $0.inPrint }, "copies > 100 AND inPrint == YES")
        try same(#Predicate<Book> { $0.title.contains("war") }, "title CONTAINS 'war'")
        try same(#Predicate<Book> { $0.title.starts(with: "The") }, "title BEGINSWITH 'The'")
    }

    @Test func anUnsupportedExpressionIsNamed() throws {
        let coalesce = #expect(throws: StoreError.self) { try TypedPredicate(#Predicate<Book> { ($0.pages ?? 0) > 10 }).predicate() }
        #expect(coalesce?.description.contains("#Predicate: NilCoalesce is not supported") == true, "\(String(describing: coalesce))")
        let arithmetic = #expect(throws: StoreError.self) { try TypedPredicate(#Predicate<Book> { $0.copies + 1 > 3 }).predicate() }
        #expect(arithmetic?.description.contains("#Predicate: Arithmetic is not supported") == true, "\(String(describing: arithmetic))")
    }

    @Test func aFetchTakesAPredicateMacro() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try PersistentStore(url: dir.file("lib.sqlite"), model: LibraryModel.model()))
        let author = try Author(context: ctx)
        author.name = "Le Guin"
        for (title, price) in [("The Dispossessed", 4.5), ("The Lathe of Heaven", 7.0)] {
            let book = try Book(context: ctx)
            book.title = title
            book.price = price
            book.author = author
        }
        let other = try Book(context: ctx)
        other.title = "Dune"
        other.price = 3
        try ctx.save()
        let found = try ctx.fetch(Book.self, where: #Predicate { $0.price < 5 && $0.author?.name == "Le Guin" }, sortedBy: [.ascending(\.title)])
        #expect(found.map(\.title) == ["The Dispossessed"])
    }
}
