import Foundation
import Testing
@testable import VellumStore

/// Typed fetches, key-path predicates and sorts, and results controllers over the
/// classes generated from `LibraryModel` (checked in as `GeneratedLibrary.swift`;
/// `generatedLibraryIsTheGeneratorsOutput` keeps it equal to the generator's output).
@Suite struct TypedQueryTests {
    @Test func generatedLibraryIsTheGeneratorsOutput() throws {
        let checkedIn = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("GeneratedLibrary.swift")
        let source = SwiftEntityGenerator(model: try LibraryModel.model(), source: "Library.json").generate()
        #expect(try String(contentsOf: checkedIn, encoding: .utf8) == source,
                "regenerate: vellum generate Tests/…/Library.json > GeneratedLibrary.swift")
    }

    @Test func keyPathPredicatesAndSortsAreTheStringSyntaxsTree() throws {
        func same(_ typed: TypedPredicate<Book>, _ format: String) throws {
            #expect(try typed.predicate() == QueryPredicate(format: format), "\(format)")
        }
        try same(\.price < 5.5 && \.author?.name == "Le Guin", "price < 5.5 AND author.name == 'Le Guin'")
        try same(\.title == "Dune" || !(\.copies >= 3), "title == 'Dune' OR NOT copies >= 3")
        try same(\.pages > 100, "pages > 100")
        try same(\.author == nil, "author == nil")
        try same(\.published != nil, "published != nil")
        try same((\Book.title).contains("war"), "title CONTAINS 'war'")
        try same((\Book.title).starts(with: "The"), "title BEGINSWITH 'The'")
        try same(\.inPrint == true, "inPrint == YES")
        #expect(try TypedSort<Book>.descending(\.price).descriptor() == QuerySortDescriptor("price", ascending: false))
        #expect(try TypedSort<Book>.ascending(\.author?.name).descriptor() == QuerySortDescriptor("author.name"))
    }

    @Test func aKeyPathThatIsNotModelledIsNamedWhenUsed() throws {
        let error = #expect(throws: StoreError.self) { try (\Book.shoutedTitle == "DUNE").predicate() }
        #expect(error?.description.contains("not a modelled property of Book") == true, "\(String(describing: error))")
    }

    @Test func typedInsertFetchAndRelationships() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try PersistentStore(url: dir.file("lib.sqlite"), model: LibraryModel.model()))
        let author = try Author(context: ctx)
        author.name = "Le Guin"
        author.born = 1929
        let book = try Book(context: ctx)
        book.title = "The Dispossessed"
        book.price = 4.5
        book.author = author
        for title in ["One", "Two", "Three"] {
            let chapter = try Chapter(context: ctx)
            chapter.title = title
            book.addToChapters(chapter)
        }
        try ctx.save()

        let reader = try ManagedObjectContext(store: ctx.store)
        let found = try reader.fetch(Book.self, where: \.price < 5 && \.author?.name == "Le Guin", sortedBy: [.ascending(\.title)])
        #expect(found.map(\.title) == ["The Dispossessed"])
        #expect(found.first?.chapters.map(\.title) == ["One", "Two", "Three"], "an ordered to-many keeps its order")
        #expect(found.first?.author?.born == 1929)
        #expect(found.first?.pages == nil && found.first?.inPrint == true)
        let people = try reader.fetch(Person.self)
        #expect(people.count == 1 && people.first?.as(Author.self)?.books.count == 1)
        #expect(try reader.count(Book.fetchRequest(where: \.price > 5)) == 0)
    }

    @Test func aTypedSetterThatCannotApplyIsThrownBySave() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try PersistentStore(url: dir.file("lib.sqlite"), model: LibraryModel.model()))
        let book = try Book(context: ctx)
        book.title = "Short"
        let other = try ManagedObjectContext(store: ctx.store)
        let stranger = try Author(context: other)
        book.author = stranger               // an object of another context
        #expect(throws: StoreError.self) { try ctx.save() }
        #expect(book.author == nil)
    }

    @MainActor
    @Test func aTypedResultsControllerFollowsSaves() throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: LibraryModel.model(), storeURL: dir.file("rc.sqlite"))
        let ctx = container.viewContext
        let list = try TypedResultsController(try Book.fetchRequest(sortedBy: [.descending(\.price)]), context: ctx)
        try list.performFetch()
        #expect(list.count == 0)
        for (title, price) in [("A", 1.0), ("B", 3.0)] {
            let b = try Book(context: ctx)
            b.title = title
            b.price = price
        }
        try ctx.save()
        #expect(try list.fetchedObjects().map(\.title) == ["B", "A"])
    }
}

extension Book {
    /// A computed property: a key path to it is not a modelled property.
    var shoutedTitle: String { title.uppercased() }
}
