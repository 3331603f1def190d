import Foundation
import Testing
@testable import VellumStore

/// Entities added, removed, renamed, moved out of a hierarchy; indexes.
@Suite struct MigrationEntityTests {
    static var base: ModelBuilder { ModelBuilder()
        .entity("Item", abstract: true) { $0.attribute("title", .string) }
        .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
        .entity("Note", parent: "Item") { $0.attribute("body", .string) }
    }

    static func fill(_ ctx: ManagedObjectContext) throws {
        _ = try ctx.insert("Task", values: ["title": .string("write"), "done": .bool(true)])
        _ = try ctx.insert("Note", values: ["title": .string("idea"), "body": .string("migrate")])
        _ = try ctx.insert("Task", values: ["title": .string("test"), "done": .bool(false)])
    }

    @Test func entityRenamedKeepsItsRowsAndKeys() throws {
        let old = try Self.base.build()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let before = try store.rows("Task", model: old)
        let new = try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Todo", parent: "Item", renamedFrom: "Task") { $0.attribute("done", .boolean) }
            .entity("Note", parent: "Item") { $0.attribute("body", .string) }
            .build()
        #expect(try StoreMigrator.plan(storeAt: store.url, to: new).description.contains("entity renamed from Task"))
        try store.migrate(to: new)
        #expect(try store.rows("Todo", model: new) == before)
        #expect(try store.rows("Note", model: new).count == 1)
    }

    @Test func entityMovedOutOfItsHierarchyGetsItsOwnTable() throws {
        let old = try Self.base.build()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let notes = try store.rows("Note", model: old)
        let new = try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .entity("Note") { $0.attribute("title", .string); $0.attribute("body", .string) }
            .build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.description.contains("parent Item → none"))
        try store.migrate(to: new)
        #expect(try store.rows("Note", model: new) == notes)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM Item") == "2")
        // Keys are never reused: the new table continues past the old table's keys.
        #expect(try sqliteScalar(store.path, "SELECT seq FROM sqlite_sequence WHERE name = 'Note'") == "3")
    }

    @Test func entityRemovedDropsItsRowsAndSaysSo() throws {
        let old = try Self.base.build()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let new = try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.description.contains("entity removed"))
        #expect(plan.description.contains("its 1 row is dropped (kept in the backup)"))
        let result = try store.migrate(to: new, backup: true)
        #expect(try store.rows("Task", model: new).count == 2)
        let backup = try #require(result.backupPath)
        #expect(try sqliteScalar(backup, "SELECT count(*) FROM Item WHERE _entity = 'Note'") == "1")
    }

    @Test func entityAddedAndIndexesChanged() throws {
        let old = try Self.base.build()
        let store = try MigrationTestStore(old, fill: Self.fill)
        let new = try ModelBuilder()
            .entity("Item", abstract: true) { $0.attribute("title", .string, indexed: true) }
            .entity("Task", parent: "Item") { $0.attribute("done", .boolean) }
            .entity("Note", parent: "Item") { $0.attribute("body", .string) }
            .entity("Tag") { $0.attribute("name", .string); $0.index("byName", "name") }
            .build()
        let plan = try StoreMigrator.plan(storeAt: store.url, to: new)
        #expect(plan.tables["Item"] == .alter)
        try store.migrate(to: new)
        let indexes = try sqliteRows(store.path, "SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_vellum%' ESCAPE '\\' ORDER BY name")
        #expect(indexes.contains("Item_title"))
        #expect(indexes.contains("Tag_byName"))
        #expect(try store.rows("Task", model: new).count == 2)
    }
}
