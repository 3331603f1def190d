import Foundation
import Testing
@testable import VellumStore

/// Relationship changes: join tables created from foreign keys and back, renames,
/// ordering, and the check that a to-many becoming to-one holds at most one object.
@Suite struct MigrationRelationshipTests {
    static func oneToMany() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "author") }
            .entity("Book") { $0.attribute("title", .string); $0.toOne("author", "Author", inverse: "books") }
            .build()
    }

    static func manyToMany(ordered: Bool = false) throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "authors", ordered: ordered) }
            .entity("Book") { $0.attribute("title", .string); $0.toMany("authors", "Author", inverse: "books", renamedFrom: "author") }
            .build()
    }

    static func backToOneToMany() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "author") }
            .entity("Book") { $0.attribute("title", .string); $0.toOne("author", "Author", inverse: "books", renamedFrom: "authors") }
            .build()
    }

    /// Ada wrote A and B, Linus wrote C, D has no author.
    static func fill(_ ctx: ManagedObjectContext) throws {
        let ada = try ctx.insert("Author", values: ["name": .string("Ada")])
        let linus = try ctx.insert("Author", values: ["name": .string("Linus")])
        for (title, author) in [("A", ada), ("B", ada), ("C", linus), ("D", nil)] as [(String, ManagedObject?)] {
            let book = try ctx.insert("Book", values: ["title": .string(title)])
            try book.setToOne("author", author)
        }
    }

    @Test func oneToManyBecomesManyToManyThroughAJoinTable() throws {
        let store = try MigrationTestStore(try Self.oneToMany(), fill: Self.fill)
        let new = try Self.manyToMany()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.description.contains("relationship author renamed to authors"))
        #expect(plan.description.contains("relationship authors to-one → to-many"))
        try store.migrate(to: new)
        let books = try store.rows("Book", model: new)
        #expect(books.values.map { [$0["title"]!, $0["authors"]!] }.sorted { "\($0)" < "\($1)" } == [
            [.string("A"), .string("1")], [.string("B"), .string("1")], [.string("C"), .string("2")], [.string("D"), .string("")],
        ])
        let authors = try store.rows("Author", model: new)
        #expect(Set(authors.values.map { $0["books"]! }) == [.string("1,2"), .string("3")])
    }

    @Test func manyToManyBecomesOneToManyWhenEveryObjectHasAtMostOne() throws {
        let store = try MigrationTestStore(try Self.oneToMany(), fill: Self.fill)
        try store.migrate(to: try Self.manyToMany())
        let back = try Self.backToOneToMany()
        try store.migrate(to: back)
        let books = try store.rows("Book", model: back)
        #expect(Dictionary(uniqueKeysWithValues: books.values.map { ($0["title"]!, $0["author"]!) }) == [
            .string("A"): .integer(1), .string("B"): .integer(1), .string("C"): .integer(2), .string("D"): .null,
        ])
    }

    @Test func toManyBecomingToOneIsRefusedWhenAnObjectHasTwo() throws {
        let store = try MigrationTestStore(try Self.oneToMany(), fill: Self.fill)
        let m2m = try Self.manyToMany()
        try store.migrate(to: m2m)
        do {  // Book C gets a second author.
            let s = try PersistentStore(url: store.url, model: m2m)
            let ctx = try ManagedObjectContext(store: s)
            let c = try #require(try ctx.fetch("Book").first { try $0.value(forKey: "title") == .string("C") })
            let ada = try #require(try ctx.fetch("Author").first { try $0.value(forKey: "name") == .string("Ada") })
            try c.add(ada, to: "authors")
            _ = try ctx.save()
        }
        let bytes = try store.bytes()
        let back = try Self.backToOneToMany()
        let text = try #require(refusal { try store.migrate(to: back) })
        #expect(text.contains("Book: author has at most one object (to-many → to-one): 1 row does not comply (keys 3)"), "\(text)")
        #expect(try store.bytes() == bytes)
    }

    @Test func relationshipRenameAndOrderingKeepTheLinks() throws {
        let store = try MigrationTestStore(try Self.oneToMany(), fill: Self.fill)
        let new = try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("works", "Book", inverse: "writer", ordered: true, renamedFrom: "books") }
            .entity("Book") { $0.attribute("title", .string); $0.toOne("writer", "Author", inverse: "works", renamedFrom: "author") }
            .build()
        try store.migrate(to: new)
        let books = try store.rows("Book", model: new)
        #expect(Set(books.values.map { [$0["title"]!, $0["writer"]!] }) == [
            [.string("A"), .integer(1)], [.string("B"), .integer(1)], [.string("C"), .integer(2)], [.string("D"), .null],
        ])
    }

    @Test func deleteRuleChangeKeepsTheTable() throws {
        let store = try MigrationTestStore(try Self.oneToMany(), fill: Self.fill)
        let new = try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "author", deleteRule: .cascade) }
            .entity("Book") { $0.attribute("title", .string); $0.toOne("author", "Author", inverse: "books") }
            .build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.description.contains("relationship books delete rule nullify → cascade"))
        #expect(plan.tables.values.allSatisfy { $0 == .unchanged })
        try store.migrate(to: new)
        #expect(try store.rows("Book", model: new).count == 4)
    }

    /// Found by the randomized test: the join rows were selected through a CTE named `r`,
    /// which (names ignore case) hid an entity table named `R`, so no row was copied.
    @Test func joinTableIsFilledWhenAnEntityIsNamedR() throws {
        let old = try ModelBuilder()
            .entity("R") { $0.toMany("items", "T", inverse: "owner") }
            .entity("T") { $0.attribute("label", .string); $0.toOne("owner", "R", inverse: "items") }.build()
        let new = try ModelBuilder()
            .entity("R") { $0.toMany("items", "T", inverse: "owner") }
            .entity("T") { $0.attribute("label", .string); $0.toMany("owner", "R", inverse: "items") }.build()
        let store = try MigrationTestStore(old) { ctx in
            let r = try ctx.insert("R")
            try ctx.insert("T", values: ["label": .string("x")]).setToOne("owner", r)
        }
        try store.migrate(to: new)
        #expect(try store.rows("T", model: new).values.map { $0["owner"]! } == [.string("1")])
    }
}
