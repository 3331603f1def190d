import Foundation
import Testing
import VellumStore

/// Issue 11, torture run, "Creating stores": names that clash in SQL are refused
/// by model validation with a message naming them, never a raw SQLite error.
@Suite struct SQLNameValidationTests {
    func refusal(_ builder: ModelBuilder) -> String? {
        do { _ = try builder.build(); return nil } catch { return error.description }
    }

    @Test func modelRefusesNamesThatClashInSQL() {
        let caseDuplicates = ModelBuilder().entity("Product") { $0.attribute("Name", .string); $0.attribute("name", .string) }
        #expect(refusal(caseDuplicates) == "Product.name: clashes with Product.Name (SQL names ignore case)")
        let entities = ModelBuilder().entity("Product").entity("product")
        #expect(refusal(entities) == "entity product: clashes with entity Product (SQL names ignore case)")
        let relationship = ModelBuilder()
            .entity("Author") { $0.attribute("books", .integer64); $0.toMany("Books", "Book", inverse: "author") }
            .entity("Book") { $0.toOne("author", "Author", inverse: "Books") }
        #expect(refusal(relationship) == "Author.Books: clashes with Author.books (SQL names ignore case)")
        let joinTable = ModelBuilder()
            .entity("Author") { $0.toMany("books", "Book", inverse: "authors") }
            .entity("Book") { $0.toMany("authors", "Author", inverse: "books") }
            .entity("author_books")
        #expect(refusal(joinTable) == "entity author_books: named like the join table or index of Author.books; choose another name")
        // The index of an entity's hierarchy, and a clash found at a later underscore.
        #expect(refusal(ModelBuilder().entity("Product").entity("PRODUCT__entity"))
                == "entity PRODUCT__entity: named like the join table or index of Product; choose another name")
        let laterUnderscore = ModelBuilder()
            .entity("My_Thing") { $0.toMany("items", "Item", inverse: "things") }
            .entity("Item") { $0.toMany("things", "My_Thing", inverse: "items") }
            .entity("my_thing_Items")
        #expect(refusal(laterUnderscore) == "entity my_thing_Items: named like the join table or index of My_Thing.items; choose another name")
        // Underscores that name nothing are fine: no such entity, or no such property.
        #expect(refusal(ModelBuilder().entity("Order_Line")) == nil)
        #expect(refusal(ModelBuilder().entity("Order") { $0.attribute("total", .double) }.entity("Order_Line")) == nil)
        #expect(refusal(ModelBuilder().entity("_vellum_changes")) == "entity _vellum_changes: names starting with _vellum_ are reserved")
        #expect(refusal(ModelBuilder().entity("SQLite_stat")) == "entity SQLite_stat: names starting with sqlite_ are reserved")
        let underscore = ModelBuilder()
            .entity("A") { $0.toOne("_b", "B", inverse: "a") }
            .entity("B") { $0.toOne("a", "A", inverse: "_b") }
        #expect(refusal(underscore) == "A._b: property names must not start with '_'")
    }

    @Test func siblingsMayUseNamesDifferingInCase() throws {
        let model = try ModelBuilder()
            .entity("Item", abstract: true)
            .entity("Book", parent: "Item") { $0.attribute("name", .string) }
            .entity("Film", parent: "Item") { $0.attribute("Name", .string) }
            .build()
        let dir = TempDir()
        let store = try PersistentStore(url: dir.file("s.vellum"), model: model)
        let c = try ManagedObjectContext(store: store)
        _ = try c.insert("Book", values: ["name": .string("b")])
        _ = try c.insert("Film", values: ["Name": .string("f")])
        _ = try c.save()
        #expect(try c.fetch("Film").first?.value(forKey: "Name") == .string("f"))
    }
}
