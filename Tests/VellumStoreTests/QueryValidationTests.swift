import Foundation
import Testing
@testable import VellumStore

@Suite struct QueryValidationTests {
    let model = QueryFixtures.model
    func check(_ s: String) throws { try QueryPredicate(format: s).validate(entityNamed: "Item", model: model) }
    func rejects(_ s: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try check(s)
            Issue.record("accepted: \(s)", sourceLocation: sourceLocation)
        } catch {
            #expect("\(error)".contains(fragment), "\(s): \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test func accepts() throws {
        for s in ["name == 'x'", "qty > 3 AND price < 2.5", "cost >= 3", "flag == YES", "flag == 1", "when > @2024-01-01",
                  "owner.name BEGINSWITH[c] 'a'", "owner == nil", "owner != nil", "ANY tags.name == 'x'",
                  "ALL tags.weight > 2", "NONE tags.name LIKE 'a*'", "tags.@count > 2", "tags.@sum.weight < 4",
                  "tags.@max.name == 'z'", "owner.items.@count > 1", "name IN {'a', nil}", "qty BETWEEN {1, 2.5}",
                  "SELF IN {1, 2}", "qty < owner.rank", "name == note", "name == $v", "name MATCHES '[a-z]+'",
                  "owner == 3", "owner != CAST('vellum://s/Owner/p3', 'NSURL')", "owner IN {1, 2}", "ANY tags == 4",
                  "NONE tags IN {1, 2}", "ANY owner.items == 7", "owner == $o",
                  "SUBQUERY(tags, $t, $t.name == 'a' AND $t.weight > qty).@count > 1",
                  "price * qty > 100", "(qty + owner.rank) / 2 BETWEEN {1, 3}", "tags.@sum.weight - 1 IN {0, 1}", "-cost < flag + 1",
                  "SUBQUERY(owner.items, $i, ANY $i.tags.weight > 2 AND $i != SELF).@count == 0",
                  "SUBQUERY(owner.items, $i, SUBQUERY($i.tags, $t, $t.weight > $i.qty).@count > 0).@count > 1",
                  "ANY tags.items.name == 'a'", "ALL tags.items.owner.items.qty > 2", "NONE owner.items.tags == 3"] {
            #expect(throws: Never.self, "\(s)") { try check(s) }
        }
    }

    @Test func rejectsBadPredicates() {
        rejects("pirce > 3", "Item has no property 'pirce'")
        rejects("owner.nmae == 'x'", "Owner has no property 'nmae'")
        rejects("name.length == 3", "is an attribute")
        rejects("tags.name == 'x'", "to-many relationship 'tags'")
        rejects("tags == nil", "to-many relationship 'tags'")
        rejects("ANY name == 'x'", "to-many")
        rejects("price CONTAINS 3", "needs strings")
        rejects("qty BEGINSWITH 'a'", "needs strings")
        rejects("name == 3", "cannot compare a string with a number")
        rejects("qty > 'x'", "cannot compare a number with a string")
        rejects("when > 3", "cannot compare a date with a number")
        rejects("name IN {'a', 2}", "cannot compare")
        rejects("owner == 'x'", "cannot compare")
        rejects("owner < nil", "a relationship can only be compared with ==, != or IN")
        rejects("owner > 3", "a relationship can only be compared with ==, != or IN")
        rejects("owner BETWEEN {1, 3}", "cannot compare")
        rejects("ANY tags == 'x'", "cannot compare")
        rejects("tags == 3", "crosses the to-many relationship 'tags'")
        rejects("$t.name == 'a'", "$t is not the variable of an enclosing SUBQUERY")
        rejects("name * 2 > 1", "'*' needs numbers, but name is a string")
        rejects("qty + 1 BEGINSWITH 'a'", "BEGINSWITH needs strings")
        rejects("when + 1 > 3", "'+' needs numbers, but when is a date")
        rejects("qty * {1, 2} > 1", "a list {…} cannot be used with '*'")
        rejects("SUBQUERY(owner, $o, $o.name == 'a').@count > 0", "SUBQUERY needs a key path ending at a to-many relationship")
        rejects("SUBQUERY(tags, $t, $t.nmae == 'a').@count > 0", "Tag has no property 'nmae'")
        rejects("SUBQUERY(tags, $t, $t.weight == 'a').@count > 0", "cannot compare")
        rejects("SUBQUERY(tags, $t, $t.name == 'a').@count == 'x'", "cannot compare")
        rejects("tags.@sum.name > 1", "numeric attribute")
        rejects("name.@count > 1", "to-many")
        rejects("qty IN 3", "needs a list")
        rejects("name LIKE note", "constant")
    }

    @Test func compilerReportsErrors() {
        let layout = NativeLayout(model: model)
        #expect {
            try QueryCompiler.compile(entity: QueryFixtures.item, layout: layout, predicate: try QueryPredicate(format: "pirce > 1"))
        } throws: { ($0 as? StoreError)?.queryError != nil }
        #expect {
            try QueryCompiler.compile(entity: QueryFixtures.item, layout: layout, predicate: try QueryPredicate(format: "qty > $x"))
        } throws: { ($0 as? StoreError)?.queryError != nil }
        #expect {
            try QueryCompiler.compile(entity: QueryFixtures.item, layout: layout, predicate: try QueryPredicate(format: "scratch == 'a'"))
        } throws: { ($0 as? StoreError)?.queryError != nil }
        #expect {
            try QueryCompiler.compile(entity: QueryFixtures.item, layout: layout, predicate: nil, sortDescriptors: [QuerySortDescriptor("tags.name")])
        } throws: { ($0 as? StoreError)?.queryError != nil }
    }

    /// A count needs a to-many relationship at the end of the path, and is a number.
    @Test(arguments: [("name.@count", "ending at a to-many"), ("owner.@count", "ending at a to-many"),
                      ("tags.items.@count", "ending at a to-many"), ("tags.@count[c]", "it is a number")])
    func sortingByACountRefusesWhatCannotBeCounted(_ sort: String, _ reason: String) throws {
        let descriptors = try QuerySortDescriptor.parseList(sort)
        #expect {
            try QueryCompiler.compile(entity: QueryFixtures.item, layout: NativeLayout(model: QueryFixtures.model), predicate: nil, sortDescriptors: descriptors)
        } throws: { ($0 as? StoreError)?.queryError?.description.contains(reason) == true }
    }

    @Test func compiledSQLShape() throws {
        let q = try QueryCompiler.compile(entity: QueryFixtures.item, layout: NativeLayout(model: model),
                                          predicate: try QueryPredicate(format: "qty != 5 AND owner.name ==[c] $n AND ANY tags.name == 'x'"),
                                          sortDescriptors: [QuerySortDescriptor("owner.name", ascending: false, comparison: .caseInsensitive)],
                                          variables: ["n": .string("Bob")])
        #expect(q.bindings == [.integer(5), .string("Bob"), .string("x")])
        #expect(q.joins.contains("LEFT JOIN \"Owner\" AS t1"))
        #expect(q.whereClause.contains("EXISTS (SELECT 1 FROM \"Item_tags\""))
        #expect(!q.whereClause.contains("'"))
        #expect(q.orderBy == "t1.\"name\" COLLATE VELLUM_NOCASE DESC, t0.\"_pk\" ASC")
    }

    @Test func nilSemanticsInMemory() throws {
        let o = TestObject(entity: QueryFixtures.item, pk: 1)
        func ev(_ s: String) throws -> Bool { try QueryPredicate(format: s).evaluate(o) }
        #expect(try ev("qty == nil"))
        #expect(try !ev("qty != nil"))
        #expect(try ev("qty != 5"))
        #expect(try !ev("qty < 5"))
        #expect(try !ev("qty >= 5"))
        #expect(try ev("NOT qty < 5"))
        #expect(try !ev("name CONTAINS 'a'"))
        #expect(try ev("NOT name CONTAINS 'a'"))
        #expect(try !ev("qty IN {1, 2}"))
        #expect(try ev("qty IN {1, nil}"))
        #expect(try ev("ALL tags.name == 'x'"))
        #expect(try !ev("ANY tags.name == 'x'"))
        #expect(try ev("tags.@count == 0"))
        #expect(try ev("tags.@sum.weight == 0"))
        #expect(try ev("tags.@avg.weight == nil"))
        o.attributes["name"] = .string("Straße")
        #expect(try ev("name CONTAINS[c] 'SS'") == TextFolding.fold("Straße", caseInsensitive: true, diacriticInsensitive: false).contains("ss"))
        #expect(try ev("name LIKE 'St?a*'"))
        #expect(try ev("name LIKE[c] 'st?A*'"))
        #expect(try !ev("name LIKE 'st?a*'"))
        #expect(try ev("name MATCHES 'S.*e'"))
        o.attributes["name"] = .string("e\u{301}")
        #expect(try !ev("name == 'é'"))
        #expect(try ev("name ==[d] 'e'"))
        #expect(try ev("name ==[cd] 'É'"))
        #expect(try ev("name LIKE '?'"))
    }
}

@Suite struct QueryHierarchyTests {
    @Test func subEntityFilterAndOneToOne() throws {
        let model = try ModelBuilder()
            .entity("Product") {
                $0.attribute("name", .string)
                $0.toOne("label", "Label", inverse: "product")
            }
            .entity("Book", parent: "Product") { $0.attribute("pages", .integer32) }
            .entity("Label") {
                $0.attribute("text", .string)
                $0.toOne("product", "Product", inverse: "label")
            }
            .build()
        let layout = NativeLayout(model: model)
        let conn = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        for sql in layout.schemaSQL() { try conn.execute(sql) }
        try conn.execute("INSERT INTO \"Product\" (\"_pk\", \"_entity\", \"name\") VALUES (1, 'Product', 'p'), (2, 'Book', 'b')")
        try conn.execute("UPDATE \"Product\" SET \"pages\" = 10 WHERE \"_pk\" = 2")
        let labelOwnsKey: Bool
        if case .foreignKey = layout.mapping(for: "Label")!.relationshipStorage[0] { labelOwnsKey = true } else { labelOwnsKey = false }
        if labelOwnsKey {
            try conn.execute("INSERT INTO \"Label\" (\"_pk\", \"_entity\", \"text\", \"product\") VALUES (1, 'Label', 'L', 2)")
        } else {
            try conn.execute("INSERT INTO \"Label\" (\"_pk\", \"_entity\", \"text\") VALUES (1, 'Label', 'L')")
            try conn.execute("UPDATE \"Product\" SET \"label\" = 1 WHERE \"_pk\" = 2")
        }
        let book = model.entity(named: "Book")!, product = model.entity(named: "Product")!
        let q = try QueryCompiler.compile(entity: book, layout: layout, predicate: try QueryPredicate(format: "pages > 1"))
        #expect(q.whereClause.hasPrefix("t0.\"_entity\" IN (?1)"))
        #expect(q.bindings.first == .string("Book"))
        #expect(try conn.rows(q.selectSQL(), q.bindings) == [[.integer(2)]])
        let all = try QueryCompiler.compile(entity: product, layout: layout, predicate: try QueryPredicate(format: "label.text == 'L'"),
                                            sortDescriptors: [QuerySortDescriptor("label.text")])
        #expect(!all.whereClause.contains("_entity"))
        #expect(try conn.rows(all.selectSQL(), all.bindings) == [[.integer(2)]])
        let none = try QueryCompiler.compile(entity: product, layout: layout, predicate: try QueryPredicate(format: "label == nil"))
        #expect(try conn.rows(none.selectSQL(), none.bindings) == [[.integer(1)]])
        let labels = try QueryCompiler.compile(entity: model.entity(named: "Label")!, layout: layout,
                                               predicate: try QueryPredicate(format: "product.name == 'b' AND product != nil"))
        #expect(try conn.rows(labels.selectSQL(), labels.bindings) == [[.integer(1)]])
    }
}
