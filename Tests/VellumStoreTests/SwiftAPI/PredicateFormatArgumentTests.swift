import Foundation
import Testing
@testable import VellumStore

/// Issue 16: the string syntax takes format arguments like `NSPredicate(format:)` —
/// `%K` key paths, `%@`, `%d`, `%f` — bound as values, never spliced into the text.
@Suite struct PredicateFormatArgumentTests {
    @Test func placeholdersGiveTheSameTreeAsWrittenOutText() throws {
        let formatted = try QueryPredicate(format: "%K == %@ AND stock > %d AND price < %f", "provider.name", "Acme", 3, 5.5)
        let written = try QueryPredicate(format: "provider.name == 'Acme' AND stock > 3 AND price < 5.5")
        #expect(formatted == written)
        #expect(try QueryPredicate(format: "name LIKE %@ AND price > %lf", "T*", 1) == QueryPredicate(format: "name LIKE 'T*' AND price > 1"))
        #expect(try QueryPredicate(format: "%K.@count > %i", "products", 0) == QueryPredicate(format: "products.@count > 0"))
    }

    @Test func anArgumentIsAValueEvenWhenItLooksLikeSyntax() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        try ctx.insert("Tag", values: ["name": "O'Brien' OR name != '"])
        try ctx.insert("Tag", values: ["name": "plain"])
        try ctx.save()
        let hostile = "x' OR name != 'x"
        #expect(try ctx.fetch("Tag", where: QueryPredicate(format: "name == %@", .string(hostile))).isEmpty)
        let exact = try ctx.fetch("Tag", where: QueryPredicate(format: "name == %@", "O'Brien' OR name != '"))
        #expect(try exact.map { try $0["name"] } == ["O'Brien' OR name != '"])
        // A key that spells a keyword or has spaces is a key, not syntax.
        #expect(try QueryPredicate(format: "%K == 1", "AND") == QueryPredicate(format: "#AND == 1"))
        #expect(try QueryPredicate(format: "%K == 1", "Unit Price") == QueryPredicate(format: "#\"Unit Price\" == 1"))
        // Inside a string literal a percent sign is text.
        #expect(try QueryPredicate(format: "name == '100%' OR name == %@ OR name LIKE '%%'", "a")
                == QueryPredicate(format: "name == '100%' OR name == 'a' OR name LIKE '%%'"))
    }

    @Test func wrongArgumentsAreNamedAtThePlaceholder() throws {
        func failure(_ format: String, _ args: Value...) -> ParseError? {
            do { _ = try QueryPredicate(format: format, argumentArray: args); return nil } catch {
                guard case .parse(let e) = error else { return nil }
                return e
            }
        }
        let missing = try #require(failure("name == %@ AND stock > %d", "Tea"))
        #expect(missing.position == 23 && missing.expected.contains("%d"), "\(missing)")
        let wrongType = try #require(failure("stock > %d", "many"))
        #expect(wrongType.position == 8 && wrongType.expected.contains("an integer"), "\(wrongType)")
        let extra = try #require(failure("stock > %d", 1, 2))
        #expect(extra.found == "2", "\(extra)")
        let unknown = try #require(failure("stock > %x", 1))
        #expect(unknown.found == "'%x'", "\(unknown)")
        let badKey = try #require(failure("%K == 1", 3))
        #expect(badKey.expected.contains("key path"), "\(badKey)")
        // A syntax error after a placeholder points into the text as written.
        let syntax = try #require(failure("name == %@ AND AND", "x"))
        #expect(syntax.position == 15, "\(syntax)")
    }
}
