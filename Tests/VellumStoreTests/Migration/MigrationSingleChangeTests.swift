import Foundation
import Testing
@testable import VellumStore

/// Inferable changes the other migration suites reach only in combination, each alone
/// on a store with data, every row checked afterwards: inverses, one-to-one ↔
/// one-to-many, abstract flags, unordered → ordered, narrowing to float and boolean,
/// constraints added over rows that comply (then enforced), an index added alone.
@Suite struct MigrationSingleChangeTests {
    // MARK: - Relationships

    static func people(swapped: Bool) throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") {
                $0.attribute("name", .string)
                $0.toMany("written", "Book", inverse: swapped ? "editor" : "author")
                $0.toMany("edited", "Book", inverse: swapped ? "author" : "editor")
            }
            .entity("Book") {
                $0.attribute("title", .string)
                $0.toOne("author", "Person", inverse: swapped ? "edited" : "written")
                $0.toOne("editor", "Person", inverse: swapped ? "written" : "edited")
            }
            .build()
    }

    @Test func swappedInversesKeepEveryToOneAndTheToManysFollowThem() throws {
        let old = try Self.people(swapped: false)
        let store = try MigrationTestStore(old) { ctx in
            let ada = try ctx.insert("Person", values: ["name": "Ada"]), bob = try ctx.insert("Person", values: ["name": "Bob"])
            for (title, author, editor) in [("A", ada, bob), ("B", ada, ada), ("C", bob, nil)] as [(String, ManagedObject, ManagedObject?)] {
                let book = try ctx.insert("Book", values: ["title": .string(title)])
                try book.setToOne("author", author)
                try book.setToOne("editor", editor)
            }
        }
        let booksBefore = try store.rows("Book", model: old)
        let new = try Self.people(swapped: true)
        #expect(try StoreMigrator.plan(storeAt: store.url, to: new).description.contains("inverse author → editor"))
        try store.migrate(to: new)
        #expect(try store.rows("Book", model: new) == booksBefore)
        // Ada (key 1) now lists as "written" the books she edited (B), as "edited" those she wrote (A, B).
        let people = try store.rows("Person", model: new)
        #expect(people[1]?["written"] == .string("2") && people[1]?["edited"] == .string("1,2"), "\(people)")
        #expect(people[2]?["written"] == .string("1") && people[2]?["edited"] == .string("3"), "\(people)")
    }

    static func passports(ownersToMany: Bool) throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.toOne("passport", "Passport", inverse: ownersToMany ? "holders" : "holder") }
            .entity("Passport") {
                $0.attribute("number", .string)
                if ownersToMany {
                    $0.toMany("holders", "Person", inverse: "passport", renamedFrom: "holder")
                } else {
                    $0.toOne("holder", "Person", inverse: "passport")
                }
            }
            .build()
    }

    /// Ada holds P1, Bob P2, Cy none; P3 is held by nobody.
    static func fillPassports(_ ctx: ManagedObjectContext) throws {
        let passports = try ["P1", "P2", "P3"].map { try ctx.insert("Passport", values: ["number": .string($0)]) }
        for (name, passport) in [("Ada", passports[0]), ("Bob", passports[1]), ("Cy", nil)] as [(String, ManagedObject?)] {
            try ctx.insert("Person", values: ["name": .string(name)]).setToOne("passport", passport)
        }
    }

    static func holders(_ store: MigrationTestStore, _ model: ManagedObjectModel) throws -> [String: String] {
        let passports = try store.rows("Passport", model: model)
        let people = try store.rows("Person", model: model)
        var out: [String: String] = [:]
        for person in people.values {
            guard case .string(let name)? = person["name"], case .integer(let key)? = person["passport"],
                  case .string(let number)? = passports[key]?["number"] else { continue }
            out[name] = number
        }
        return out
    }

    @Test func oneToOneBecomesOneToManyAndBackKeepingEveryLink() throws {
        let one = try Self.passports(ownersToMany: false)
        let store = try MigrationTestStore(one, fill: Self.fillPassports)
        let expected = ["Ada": "P1", "Bob": "P2"]
        #expect(try Self.holders(store, one) == expected)
        let many = try Self.passports(ownersToMany: true)
        try store.migrate(to: many)
        #expect(try Self.holders(store, many) == expected)
        #expect(Set(try store.rows("Passport", model: many).values.map { $0["holders"]! }) == [.string("1"), .string("2"), .string("")])
        // And back: every passport has at most one holder, so the to-many can become to-one again.
        let back = try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.toOne("passport", "Passport", inverse: "holder") }
            .entity("Passport") { $0.attribute("number", .string); $0.toOne("holder", "Person", inverse: "passport", renamedFrom: "holders") }
            .build()
        try store.migrate(to: back)
        #expect(try Self.holders(store, back) == expected)
    }

    @Test func unorderedBecomingOrderedKeepsEveryLinkInAStableOrder() throws {
        func model(ordered: Bool) throws -> ManagedObjectModel {
            try ModelBuilder()
                .entity("List") { $0.attribute("name", .string); $0.toMany("items", "Item", inverse: "list", ordered: ordered) }
                .entity("Item") { $0.attribute("label", .string); $0.toOne("list", "List", inverse: "items") }
                .build()
        }
        let store = try MigrationTestStore(try model(ordered: false)) { ctx in
            let a = try ctx.insert("List", values: ["name": "a"]), b = try ctx.insert("List", values: ["name": "b"])
            for (label, list) in [("x", a), ("y", b), ("z", a), ("w", a)] { try ctx.insert("Item", values: ["label": .string(label)]).setToOne("list", list) }
        }
        let ordered = try model(ordered: true)
        try store.migrate(to: ordered)
        let lists = try store.rows("List", model: ordered)
        // Every link is kept, each list's members in key order (the order they were added).
        #expect(lists[1]?["items"] == .string("1,3,4") && lists[2]?["items"] == .string("2"), "\(lists)")
        // The order is real: moving an item to the front is kept.
        let context = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: ordered))
        let list = try #require(try context.fetch("List").first { try $0["name"] == "a" })
        let members = try list.toMany("items")
        try list.setToMany("items", [members[2], members[0], members[1]])
        _ = try context.save()
        #expect(try store.rows("List", model: ordered)[1]?["items"] == .string("4,1,3"))
    }

    // MARK: - Entities

    static func items(abstract: Bool) throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Item", abstract: abstract) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .build()
    }

    @Test func anEntityMadeAbstractWithoutObjectsOfItsOwnMigratesAndKeepsItsSubentitysRows() throws {
        let old = try Self.items(abstract: false)
        let store = try MigrationTestStore(old) { ctx in
            for (title, done) in [("write", true), ("read", false)] { _ = try ctx.insert("Task", values: ["title": .string(title), "done": .bool(done)]) }
        }
        let before = try store.rows("Task", model: old)
        let new = try Self.items(abstract: true)
        try store.migrate(to: new)
        #expect(try store.rows("Task", model: new) == before)
        // Enforced afterwards: an Item of its own cannot be made.
        let context = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: new))
        #expect(throws: StoreError.self) { _ = try context.insert("Item", values: ["title": "plain"]) }
    }

    @Test func anAbstractEntityMadeConcreteKeepsItsRowsAndTakesObjectsOfItsOwn() throws {
        let old = try Self.items(abstract: true)
        let store = try MigrationTestStore(old) { ctx in _ = try ctx.insert("Task", values: ["title": "write", "done": true]) }
        let before = try store.rows("Task", model: old)
        let new = try Self.items(abstract: false)
        try store.migrate(to: new)
        #expect(try store.rows("Task", model: new) == before)
        let context = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: new))
        _ = try context.insert("Item", values: ["title": "plain"])
        _ = try context.save()
        #expect(try store.rows("Item", model: new).values.map { $0["title"] } == [.string("plain")])
    }

    // MARK: - Narrowing

    static func measures(_ type: AttributeType) throws -> ManagedObjectModel {
        try ModelBuilder().entity("Measure") { $0.attribute("v", type) }.build()
    }

    /// Float attributes are stored in 64 bits as Core Data stores them (a REAL column), so
    /// a double fits unless it is beyond Float's range; those rows are listed.
    @Test func doubleToFloatMigratesWhatFloatHoldsAndListsWhatIsBeyondItsRange() throws {
        let fits = try MigrationTestStore(try Self.measures(.double)) { ctx in
            for v: Value in [.double(0.5), .double(0.1), .double(-2.25), .double(3e38), .null] { _ = try ctx.insert("Measure", values: ["v": v]) }
        }
        try fits.migrate(to: try Self.measures(.float))
        #expect(Set(try fits.rows("Measure", model: try Self.measures(.float)).values.map { $0["v"]! })
                == [.double(0.5), .double(0.1), .double(-2.25), .double(3e38), .null])

        let beyond = try MigrationTestStore(try Self.measures(.double)) { ctx in
            for v in [0.5, 1e300, -4e38] { _ = try ctx.insert("Measure", values: ["v": .double(v)]) }
        }
        let bytes = try beyond.bytes()
        let text = try #require(refusal { try beyond.migrate(to: try Self.measures(.float)) })
        #expect(text.contains("2 rows do not comply (keys 2, 3)"), "\(text)")
        #expect(try beyond.bytes() == bytes)
    }

    @Test func integerToBooleanMigratesZerosAndOnesAndListsOtherValues() throws {
        let fits = try MigrationTestStore(try Self.measures(.integer16)) { ctx in
            for v: Value in [.integer(0), .integer(1), .null] { _ = try ctx.insert("Measure", values: ["v": v]) }
        }
        let boolean = try Self.measures(.boolean)
        try fits.migrate(to: boolean)
        #expect(Set(try fits.rows("Measure", model: boolean).values.map { $0["v"]! }) == [.bool(false), .bool(true), .null])

        let other = try MigrationTestStore(try Self.measures(.integer16)) { ctx in
            for v in [1, 2, 0, -1] { _ = try ctx.insert("Measure", values: ["v": .integer(Int64(v))]) }
        }
        let text = try #require(refusal { try other.migrate(to: boolean) })
        #expect(text.contains("2 rows do not comply (keys 2, 4)"), "\(text)")
    }

    // MARK: - Constraints and indexes

    @Test func constraintsAddedOverRowsThatComplyRunAndAreEnforcedAfterwards() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people()) { ctx in
            for (name, age) in [("Ada", 36), ("Grace", 85)] { _ = try ctx.insert("Person", values: ["name": .string(name), "age": .integer(Int64(age))]) }
        }
        let new = try ModelBuilder().entity("Person") {
            $0.attribute("name", .string, regex: "[A-Z][a-z]+")
            $0.attribute("age", .integer16, min: 18, max: 120)
            $0.unique("name")
        }.build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.canRun, "\(plan.description)")
        try store.migrate(to: new)
        #expect(try store.rows("Person", model: new).count == 2)
        let context = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: new))
        for values: [String: Value] in [["name": "Ada", "age": 40], ["name": "Linus", "age": 12], ["name": "linus", "age": 40]] {
            context.reset()
            _ = try context.insert("Person", values: values)
            #expect(throws: StoreError.self, "\(values) was saved") { _ = try context.save() }
        }
    }

    @Test func anIndexAddedAloneIsCreatedInPlaceAndUsed() throws {
        let old = try MigrationAttributeTests.people()
        let store = try MigrationTestStore(old, fill: MigrationAttributeTests.fill)
        let before = try store.rows("Person", model: old)
        let new = try MigrationAttributeTests.people { $0.index("byAge", "age") }
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.tables["Person"] == .alter, "\(plan.description)")
        #expect(plan.description.contains("byAge"), "\(plan.description)")
        try store.migrate(to: new)
        #expect(try store.rows("Person", model: new) == before)
        let connection = try Connection(path: store.path)
        let indexed = try connection.rows("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND sql LIKE '%\"age\"%'")
        #expect(indexed.first?.first?.integerValue == 1, "\(indexed)")
    }
}
