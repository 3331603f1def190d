import Foundation
import Testing
@testable import VellumStore

/// Each inferable attribute change alone, on a store with data, every row checked.
@Suite struct MigrationAttributeTests {
    static func people(_ body: (inout EntityBuilder) -> Void = { _ in }) throws -> ManagedObjectModel {
        try ModelBuilder().entity("Person") {
            $0.attribute("name", .string)
            $0.attribute("age", .integer16)
            body(&$0)
        }.build()
    }

    static func fill(_ context: ManagedObjectContext) throws {
        for (name, age) in [("Ada", 36), ("Grace", 85), ("Linus", 12)] {
            _ = try context.insert("Person", values: ["name": .string(name), "age": .integer(Int64(age))])
        }
        _ = try context.insert("Person", values: ["name": .null, "age": .null])
    }

    @Test func addOptionalAttributeAltersInPlaceAndKeepsEveryRow() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try Self.people { $0.attribute("email", .string) }
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.tables["Person"] == .alter)
        #expect(plan.description.contains("attribute email added"))
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        #expect(after.count == 4)
        for (key, row) in before {
            var expected = row
            expected["email"] = .null
            #expect(after[key] == expected)
        }
    }

    @Test func addAttributeWithDefaultFillsExistingRows() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try Self.people { $0.attribute("score", .integer32, optional: false, default: .integer(7)) }
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before {
            var expected = row
            expected["score"] = .integer(7)
            #expect(after[key] == expected)
        }
    }

    @Test func removeAttributeRebuildsTheTable() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try ModelBuilder().entity("Person") { $0.attribute("name", .string) }.build()
        #expect(try StoreMigrator.plan(storeAt: store.url, to: new).tables["Person"] == .rebuild)
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before { #expect(after[key] == ["name": row["name"]!]) }
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM pragma_table_info('Person') WHERE name = 'age'") == "0")
    }

    @Test func renameAttributeThroughRenamingIdentifier() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("fullName", .string, renamedFrom: "name")
            $0.attribute("age", .integer16)
        }.build()
        #expect(try StoreMigrator.plan(storeAt: store.url, to: new).description.contains("attribute name renamed to fullName"))
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before { #expect(after[key] == ["fullName": row["name"]!, "age": row["age"]!]) }
    }

    @Test func optionalToRequiredWithoutDefaultIsRefusedNamingTheRows() throws {
        let store = try MigrationTestStore(try Self.people(), fill: Self.fill)
        let bytes = try store.bytes()
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string, optional: false)
            $0.attribute("age", .integer16)
        }.build()
        let text = try #require(refusal { try store.migrate(to: new) })
        #expect(text.contains("Person: name has a value (now required, no default): 1 row does not comply (keys 4)"), "\(text)")
        #expect(try store.bytes() == bytes)
    }

    @Test func optionalToRequiredWithDefaultFillsTheNils() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string, optional: false, default: .string("anonymous"))
            $0.attribute("age", .integer16)
        }.build()
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before {
            var expected = row
            if expected["name"] == .null { expected["name"] = .string("anonymous") }
            #expect(after[key] == expected)
        }
    }

    @Test func wideningTypesConvertEveryValue() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Person", model: old)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string)
            $0.attribute("age", .double)
        }.build()
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before {
            let age: Value = row["age"]!.integerValue.map { .double(Double($0)) } ?? .null
            #expect(after[key] == ["name": row["name"]!, "age": age])
        }
    }

    @Test func scalarToStringWidens() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string)
            $0.attribute("age", .string)
        }.build()
        try store.migrate(to: new)
        let ages = try store.rows("Person", model: new).values.map { $0["age"]! }
        #expect(Set(ages) == [.string("36"), .string("85"), .string("12"), .null])
    }

    @Test func narrowingIsCheckedAgainstTheData() throws {
        let old = try ModelBuilder().entity("Person") { $0.attribute("age", .integer64) }.build()
        let store = try MigrationTestStore(old) { ctx in
            for age: Int64 in [1, 40_000, 70_000] { _ = try ctx.insert("Person", values: ["age": .integer(age)]) }
        }
        let narrow = try ModelBuilder().entity("Person") { $0.attribute("age", .integer16) }.build()
        let text = try #require(refusal { try store.migrate(to: narrow) })
        #expect(text.contains("age values fit integer16: 2 rows do not comply (keys 2, 3)"), "\(text)")
        let wider = try ModelBuilder().entity("Person") { $0.attribute("age", .integer32) }.build()
        try store.migrate(to: wider)
        #expect(Set(try store.rows("Person", model: wider).values.map { $0["age"]! }) == [.integer(1), .integer(40_000), .integer(70_000)])
    }

    @Test func notInferableTypeChangeIsRefusedWithReason() throws {
        let store = try MigrationTestStore(try Self.people(), fill: Self.fill)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .date)
            $0.attribute("age", .integer16)
        }.build()
        let text = try #require(refusal { try store.migrate(to: new) })
        #expect(text.contains("Person: name: string → date is not a lossless conversion"), "\(text)")
    }

    @Test func constraintsAddedAreCheckedAndViolationsListed() throws {
        let store = try MigrationTestStore(try Self.people(), fill: Self.fill)
        let ranged = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string, regex: "[A-Z][a-z]+")
            $0.attribute("age", .integer16, min: 18, max: 80)
        }.build()
        let text = try #require(refusal { try store.migrate(to: ranged) })
        #expect(text.contains("age ≥ 18.0: 1 row does not comply (keys 3)"), "\(text)")
        #expect(text.contains("age ≤ 80.0: 1 row does not comply (keys 2)"), "\(text)")
        #expect(text.contains("name matches [A-Z][a-z]+: ok"), "every name matches the regex: \(text)")
    }

    @Test func uniquenessAddedOverDuplicatesIsRefused() throws {
        let old = try Self.people()
        let store = try MigrationTestStore(old) { ctx in
            for name in ["Ada", "Ada", "Bob"] { _ = try ctx.insert("Person", values: ["name": .string(name)]) }
        }
        let unique = try Self.people { $0.unique("name") }
        let text = try #require(refusal { try store.migrate(to: unique) })
        #expect(text.contains("(name) unique: 2 rows do not comply (keys 1, 2)"), "\(text)")
    }

    /// A new attribute with a default takes that value in every row: a uniqueness
    /// constraint over it is checked as over any column. Before, such a constraint was
    /// not checked at all: the plan said it could run, and the migration failed inside its
    /// transaction with SQLite's own words instead of the rows listed.
    @Test func uniquenessOverANewAttributeWithADefaultIsCheckedAgainstTheRows() throws {
        let store = try MigrationTestStore(try Self.people()) { ctx in
            for name in ["Ada", "Ada", "Bob"] { _ = try ctx.insert("Person", values: ["name": .string(name)]) }
        }
        let before = try store.bytes()
        let alone = try Self.people { $0.attribute("code", .string, default: "X"); $0.unique("code") }
        let text = try #require(refusal { try store.migrate(to: alone) })
        #expect(text.contains("(code) unique: 3 rows do not comply (keys 1, 2, 3)"), "\(text)")
        let paired = try Self.people { $0.attribute("code", .string, default: "X"); $0.unique("name", "code") }
        let pairedText = try #require(refusal { try store.migrate(to: paired) })
        #expect(pairedText.contains("(name, code) unique: 2 rows do not comply (keys 1, 2)"), "\(pairedText)")
        #expect(try store.bytes() == before)
        // Without a default the new attribute is nil in every row: nothing collides.
        let optional = try Self.people { $0.attribute("code", .string); $0.unique("name", "code") }
        try store.migrate(to: optional)
        #expect(try store.rows("Person", model: optional).count == 3)
    }

    @Test func uniquenessOverANewAttributeWithADefaultRunsOnASingleRow() throws {
        let store = try MigrationTestStore(try Self.people()) { ctx in _ = try ctx.insert("Person", values: ["name": "Ada"]) }
        let new = try Self.people { $0.attribute("code", .string, default: "X"); $0.unique("code") }
        try store.migrate(to: new)
        #expect(try store.rows("Person", model: new).values.map { $0["code"] } == [.string("X")])
    }

    /// Found by the randomized test: a type widened and made required with a default
    /// kept its NULLs (the converted path skipped the default).
    @Test func widenedAndRequiredWithDefaultFillsTheNils() throws {
        let store = try MigrationTestStore(try Self.people(), fill: Self.fill)
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string)
            $0.attribute("age", .string, optional: false, default: .string("unknown"))
        }.build()
        try store.migrate(to: new)
        #expect(Set(try store.rows("Person", model: new).values.map { $0["age"]! }) == [.string("36"), .string("85"), .string("12"), .string("unknown")])
    }
}
