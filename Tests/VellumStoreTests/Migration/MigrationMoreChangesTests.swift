import Foundation
import Testing
@testable import VellumStore

/// The inferable changes the other migration suites leave out, each alone on a store
/// with data, every row checked after (or the refusal's words, with the file unchanged).
@Suite struct MigrationMoreChangesTests {
    typealias A = MigrationAttributeTests
    typealias R = MigrationRelationshipTests
    typealias E = MigrationEntityTests

    static func person(_ body: (inout EntityBuilder) -> Void) throws -> ManagedObjectModel {
        try ModelBuilder().entity("Person", body).build()
    }

    // MARK: attributes

    @Test func requiredToOptionalKeepsEveryValue() throws {
        let old = try Self.person { $0.attribute("name", .string, optional: false); $0.attribute("age", .integer16) }
        let store = try MigrationTestStore(old) { ctx in
            for n in ["Ada", "Grace"] { _ = try ctx.insert("Person", values: ["name": .string(n), "age": .integer(3)]) }
        }
        let before = try store.rows("Person", model: old)
        let new = try A.people()
        #expect(try StoreMigrator.plan(storeAt: store.url, to: new).canRun)
        try store.migrate(to: new)
        #expect(try store.rows("Person", model: new) == before)
        // The new model's rule holds in the file: a nil name now saves.
        let container = try PersistentStore(url: store.url, model: new)
        let ctx = try ManagedObjectContext(store: container)
        _ = try ctx.insert("Person", values: ["name": .null])
        try ctx.save()
    }

    @Test func integerWidensStepByStepFrom16To32To64() throws {
        let store = try MigrationTestStore(try A.people(), fill: A.fill)
        let before = try store.rows("Person", model: try A.people())
        for type in [AttributeType.integer32, .integer64] {
            let new = try Self.person { $0.attribute("name", .string); $0.attribute("age", type) }
            try store.migrate(to: new)
            #expect(try store.rows("Person", model: new) == before, "\(type)")
        }
    }

    @Test func integerToDecimalKeepsEveryValueExactly() throws {
        let old = try Self.person { $0.attribute("cents", .integer64) }
        let big: Int64 = 9_007_199_254_740_993    // 2^53 + 1: a double would round it
        let store = try MigrationTestStore(old) { ctx in
            for v in [big, -5, 0] { _ = try ctx.insert("Person", values: ["cents": .integer(v)]) }
            _ = try ctx.insert("Person", values: ["cents": .null])
        }
        let new = try Self.person { $0.attribute("cents", .decimal) }
        try store.migrate(to: new)
        let values = Set(try store.rows("Person", model: new).values.map { $0["cents"]! })
        #expect(values == [.decimal(Decimal(big)), .decimal(-5), .decimal(0), .null], "\(values)")
    }

    @Test func floatToDoubleKeepsEveryValue() throws {
        let old = try Self.person { $0.attribute("score", .float) }
        let store = try MigrationTestStore(old) { ctx in
            for v in [0.5, -2.25, 1e10] { _ = try ctx.insert("Person", values: ["score": .double(v)]) }
        }
        let before = try store.rows("Person", model: old)
        let new = try Self.person { $0.attribute("score", .double) }
        try store.migrate(to: new)
        let after = try store.rows("Person", model: new)
        for (key, row) in before { #expect(after[key] == row) }
    }

    @Test func doubleToIntegerMigratesOnlyWhenEveryValueIsWhole() throws {
        let old = try Self.person { $0.attribute("size", .double) }
        let store = try MigrationTestStore(old) { ctx in
            for v in [1.0, 2.5, 40.0] { _ = try ctx.insert("Person", values: ["size": .double(v)]) }
        }
        let bytes = try store.bytes()
        let new = try Self.person { $0.attribute("size", .integer32) }
        let text = try #require(refusal { try store.migrate(to: new) })
        #expect(text.contains("1 row does not comply (keys 2)"), "\(text)")
        #expect(try store.bytes() == bytes)
    }

    @Test func aRegexAddedOverNonMatchingValuesIsRefusedNamingTheRows() throws {
        let store = try MigrationTestStore(try A.people()) { ctx in
            for n in ["Ada", "linus", "Grace", "x1"] { _ = try ctx.insert("Person", values: ["name": .string(n)]) }
        }
        let bytes = try store.bytes()
        let new = try Self.person { $0.attribute("name", .string, regex: "[A-Z][a-z]+"); $0.attribute("age", .integer16) }
        let text = try #require(refusal { try store.migrate(to: new) })
        #expect(text.contains("name matches [A-Z][a-z]+: 2 rows do not comply (keys 2, 4)"), "\(text)")
        #expect(try store.bytes() == bytes)
    }

    @Test func anIndexRemovedIsDroppedAndTheRowsStay() throws {
        let old = try Self.person { $0.attribute("name", .string, indexed: true); $0.attribute("age", .integer16) }
        let store = try MigrationTestStore(old, fill: A.fill)
        let before = try store.rows("Person", model: old)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'Person_name'") == "1")
        let new = try A.people()
        try store.migrate(to: new)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name = 'Person_name'") == "0")
        #expect(try store.rows("Person", model: new) == before)
    }

    // MARK: relationships

    @Test func aRelationshipAddedStartsEmptyAndOneRemovedLeavesTheObjects() throws {
        let store = try MigrationTestStore(try R.oneToMany(), fill: R.fill)
        let books = try store.rows("Book", model: try R.oneToMany())
        let withEditor = try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "author"); $0.toMany("edited", "Book", inverse: "editor") }
            .entity("Book") { $0.attribute("title", .string); $0.toOne("author", "Author", inverse: "books"); $0.toOne("editor", "Author", inverse: "edited") }
            .build()
        try store.migrate(to: withEditor)
        let after = try store.rows("Book", model: withEditor)
        for (key, row) in books {
            var expected = row
            expected["editor"] = .null
            #expect(after[key] == expected)
        }
        let without = try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string) }
            .entity("Book") { $0.attribute("title", .string) }
            .build()
        try store.migrate(to: without)
        #expect(Set(try store.rows("Book", model: without).values.map { $0["title"]! }) == [.string("A"), .string("B"), .string("C"), .string("D")])
        #expect(try store.rows("Author", model: without).count == 2)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM pragma_table_info('Book') WHERE name IN ('author', 'editor')") == "0")
    }

    @Test func orderedToUnorderedKeepsEveryLink() throws {
        let store = try MigrationTestStore(try R.oneToMany(), fill: R.fill)
        try store.migrate(to: try R.manyToMany(ordered: true))
        let unordered = try ModelBuilder()
            .entity("Author") { $0.attribute("name", .string); $0.toMany("books", "Book", inverse: "authors") }
            .entity("Book") { $0.attribute("title", .string); $0.toMany("authors", "Author", inverse: "books") }
            .build()
        try store.migrate(to: unordered)
        let ctx = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: unordered))
        var links: [String: Set<String>] = [:]
        for author in try ctx.fetch("Author") {
            let name = try author.value(forKey: "name").stringValue ?? ""
            links[name] = Set(try author.toMany("books").map { try $0.value(forKey: "title").stringValue ?? "" })
        }
        #expect(links == ["Ada": ["A", "B"], "Linus": ["C"]])
    }

    // MARK: entities

    static func noteApart() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .entity("Note") { $0.attribute("title", .string); $0.attribute("body", .string) }
            .build()
    }

    static func fillNotes(_ ctx: ManagedObjectContext) throws {
        _ = try ctx.insert("Note", values: ["title": .string("idea"), "body": .string("migrate")])
        _ = try ctx.insert("Note", values: ["title": .string("plan"), "body": .string("v2")])
    }

    /// Keys (and so object IDs) are kept: an entity moved into a hierarchy joins its root's
    /// table with its rows and keys, when none of them is taken there.
    @Test func entityMovedIntoAHierarchyJoinsItsParentsTableWithItsRowsAndKeys() throws {
        let old = try Self.noteApart()
        let store = try MigrationTestStore(old, fill: Self.fillNotes)
        let before = try store.rows("Note", model: old)
        let new = try E.base.build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.description.contains("parent none → Item"), "\(plan.description)")
        try store.migrate(to: new)
        #expect(try store.rows("Note", model: new) == before)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM Item WHERE _entity = 'Note'") == "2")
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM sqlite_master WHERE name = 'Note'") == "0")
    }

    /// Two rows of one hierarchy cannot share a key: an entity moved into a hierarchy whose
    /// table already uses its keys gets new ones, past every key that table handed out (as
    /// Core Data re-keys); the plan says so and that their object IDs change. Issue #15,
    /// "moved in or out of a hierarchy" (refused before whenever both tables had rows).
    @Test func entityMovedIntoAHierarchyWhoseKeysAreTakenGetsNewKeys() throws {
        let old = try Self.noteApart()
        let store = try MigrationTestStore(old) { ctx in
            _ = try ctx.insert("Task", values: ["title": .string("write"), "done": .bool(true)])
            try Self.fillNotes(ctx)
        }
        let tasks = try store.rows("Task", model: old), notes = try store.rows("Note", model: old)
        #expect(Set(notes.keys) == [1, 2] && Set(tasks.keys) == [1])
        let new = try E.base.build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.canRun, "\(plan.description)")
        #expect(plan.description.contains("2 rows get new keys (key + 1): their keys are taken in Item; their object IDs change"), "\(plan.description)")
        try store.migrate(to: new)
        #expect(try store.rows("Task", model: new) == tasks, "the rows already there keep their keys")
        let moved = try store.rows("Note", model: new)
        #expect(moved == Dictionary(uniqueKeysWithValues: notes.map { ($0.key + 1, $0.value) }))
        // The table's key sequence continues past the new keys: the next object takes 4.
        let ctx = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: new))
        let next = try ctx.insert("Task", values: ["title": .string("next"), "done": .bool(false)])
        try ctx.save()
        #expect(MigrationTestStore.key(next.objectID) == 4)
        #expect(try sqliteScalar(store.path, "PRAGMA integrity_check") == "ok")
    }

    /// Re-keyed rows keep every link: to-ones pointing at them, their own to-ones, a
    /// many-to-many's join rows and a self-reference all follow the new keys.
    @Test func reKeyedRowsKeepEveryRelationship() throws {
        func model(noteParent: String?) throws -> ManagedObjectModel {
            try ModelBuilder()
                .entity("Item", abstract: true) { $0.attribute("title", .string) }
                .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
                .entity("Note", parent: noteParent) {
                    if noteParent == nil { $0.attribute("title", .string) }
                    $0.attribute("body", .string)
                    $0.toMany("comments", "Comment", inverse: "note")
                    $0.toMany("tags", "Tag", inverse: "notes")
                    $0.toOne("previous", "Note", inverse: "following")
                    $0.toMany("following", "Note", inverse: "previous")
                }
                .entity("Comment") { $0.attribute("text", .string); $0.toOne("note", "Note", inverse: "comments") }
                .entity("Tag") { $0.attribute("label", .string); $0.toMany("notes", "Note", inverse: "tags") }
                .build()
        }
        let old = try model(noteParent: nil), new = try model(noteParent: "Item")
        let store = try MigrationTestStore(old) { ctx in
            for t in ["a", "b", "c"] { _ = try ctx.insert("Task", values: ["title": .string(t), "done": .bool(false)]) }
            let red = try ctx.insert("Tag", values: ["label": .string("red")])
            let blue = try ctx.insert("Tag", values: ["label": .string("blue")])
            var previous: ManagedObject?
            for (i, title) in ["one", "two", "three"].enumerated() {
                let note = try ctx.insert("Note", values: ["title": .string(title), "body": .string("b\(i)")])
                try note.setToOne("previous", previous)
                try note.setToMany("tags", i == 1 ? [red, blue] : [red])
                for n in 0..<(i + 1) { try ctx.insert("Comment", values: ["text": .string("\(title)-\(n)")]).setToOne("note", note) }
                previous = note
            }
        }
        func links(_ m: ManagedObjectModel) throws -> [String: String] {
            let ctx = try ManagedObjectContext(store: try PersistentStore(url: store.url, model: m))
            var out: [String: String] = [:]
            for note in try ctx.fetch("Note") {
                let title = try note.value(forKey: "title").stringValue ?? "?"
                let comments = try note.toMany("comments").map { try $0.value(forKey: "text").stringValue ?? "" }.sorted()
                let tags = try note.toMany("tags").map { try $0.value(forKey: "label").stringValue ?? "" }.sorted()
                let previous = try note.toOne("previous").map { try $0.value(forKey: "title").stringValue ?? "" } ?? "-"
                out[title] = "\(comments) \(tags) after \(previous)"
            }
            return out
        }
        let before = try links(old)
        #expect(before.count == 3)
        let plan = try store.migrate(to: new).plan
        #expect(plan.description.contains("3 rows get new keys (key + 3)"), "\(plan.description)")
        #expect(try links(new) == before)
        #expect(try sqliteScalar(store.path, "SELECT group_concat(_pk) FROM (SELECT _pk FROM Item WHERE _entity = 'Note' ORDER BY _pk)") == "4,5,6")
        #expect(try sqliteScalar(store.path, "PRAGMA foreign_key_check") == "")
    }

    @Test func anEntityMadeAbstractWhileItHasObjectsIsRefused() throws {
        let old = try ModelBuilder()
            .entity("Item") { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .build()
        let store = try MigrationTestStore(old) { ctx in
            _ = try ctx.insert("Item", values: ["title": .string("plain")])
            _ = try ctx.insert("Task", values: ["title": .string("write"), "done": .bool(true)])
        }
        let bytes = try store.bytes()
        let new = try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .build()
        let text = try #require(refusal { try store.migrate(to: new) })
        #expect(text.contains("Item"), "\(text)")
        #expect(try store.bytes() == bytes)
    }
}
