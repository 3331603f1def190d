import Foundation
import Testing
@testable import VellumStore

/// A comparison known to be false compiles to 0 and drops the values bound for
/// it; the compiler keeps count of which values its SQL still uses (it no longer
/// re-reads `?N` out of the SQL text), so the statement binds exactly those.
@Suite struct CompiledPlaceholderTests {
    let dir = TempDir()

    func compiled(_ format: String, _ store: PersistentStore) throws -> CompiledQuery {
        let entity = try #require(store.model.entity(named: "Product"))
        return try QueryCompiler.compile(entity: entity, layout: store.layout, predicate: try QueryPredicate(format: format))
    }

    @Test func valuesOfComparisonsKnownFalseAreNotBound() throws {
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Product", values: ["name": .string("a"), "price": .double(3)])
        try ctx.insert("Product", values: ["name": .string("b"), "price": .double(4)])
        try ctx.save()
        let cases: [(String, bindings: [Value], names: [String])] = [
            ("name == 'a' OR price * 2 < nil", [.string("a")], ["a"]),                 // trailing value dropped
            ("price * 2 < nil OR name == 'b'", [.integer(2), .string("b")], ["b"]),     // unused in the middle: harmless
            ("price * 2 < nil", [], []),
            ("price * 2 > 7 AND (name == 'x' OR price * 3 < nil)", [.integer(2), .integer(7), .string("x")], []),
            ("price * 2 > 7", [.integer(2), .integer(7)], ["b"]),
            ("name == 'a' OR price * 2 BETWEEN {nil, 9}", [.string("a")], ["a"]),      // half of BETWEEN known false
            ("price * 2 BETWEEN {7, 9} OR name == 'a'", [.integer(2), .integer(7), .integer(9), .string("a")], ["a", "b"]),
        ]
        for (format, bindings, names) in cases {
            let query = try compiled(format, store)
            #expect(query.bindings.map(\.description) == bindings.map(\.description), "\(format): \(query.whereClause)")
            let fetched = try ctx.fetch(FetchRequest(entityName: "Product", predicate: try QueryPredicate(format: format),
                                                     sortDescriptors: [QuerySortDescriptor("name")]))
            #expect(try fetched.map { try $0["name"].stringValue ?? "" } == names, "\(format)")
        }
    }
}
