import Foundation
import Testing
@testable import VellumStore

/// Issue #11, item 5: undo and redo never overwrite another writer's change;
/// they fail with a version conflict holding both versions. On both engines (`StoreEngine`).
@Suite struct UndoConflictTests {
    typealias Shop = UndoDeleteTests.Shop

    /// Another program's write that takes part in optimistic locking (bumps `_version`).
    func otherWriter(_ shop: Shop, _ sql: String) throws {
        try shop.outside(sql)
    }

    func conflict(_ error: any Error) -> MergeConflict? {
        guard case StoreError.conflicts(let all) = error else { return nil }
        return all.first
    }

    @Test(arguments: StoreEngine.allCases) func undoAfterAnotherWriterChangedTheFieldIsAConflict(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let tea = try shop.ctx.insert("Product", values: ["name": .string("Tea")])
        try shop.ctx.save()
        try shop.action("edit stock") { try tea.setValue(.integer(10), forKey: "stock") }
        try otherWriter(shop, "UPDATE \"Product\" SET \"stock\" = 20, \"_version\" = \"_version\" + 1")

        let error = #expect(throws: StoreError.self) { try shop.undo.undo(in: shop.ctx) }
        let c = try #require(error.flatMap(conflict))
        #expect(c.kind == .version && c.objectID == tea.objectID)
        #expect(c.persistedSnapshot?["stock"] == .integer(20))   // theirs
        #expect(c.objectSnapshot["stock"] == .integer(0))         // what undo would write
        #expect(c.cachedSnapshot["stock"] == .integer(10))        // what the action left
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"stock\" FROM \"Product\"") == "20")
        #expect(shop.undo.canUndo && shop.undo.undoActionName == "edit stock")

        // Knowingly overwriting theirs is possible.
        try shop.undo.undo(in: shop.ctx, overwritingConflicts: true)
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"stock\" FROM \"Product\"") == "0")
    }

    @Test(arguments: StoreEngine.allCases) func redoAfterAnotherWriterChangedTheFieldIsAConflict(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let tea = try shop.ctx.insert("Product", values: ["name": .string("Tea")])
        try shop.ctx.save()
        try shop.action("edit stock") { try tea.setValue(.integer(10), forKey: "stock") }
        try shop.undo.undo(in: shop.ctx)
        try shop.ctx.save()
        try otherWriter(shop, "UPDATE \"Product\" SET \"stock\" = 30, \"_version\" = \"_version\" + 1")

        let error = #expect(throws: StoreError.self) { try shop.undo.redo(in: shop.ctx) }
        let c = try #require(error.flatMap(conflict))
        #expect(c.persistedSnapshot?["stock"] == .integer(30))
        #expect(c.objectSnapshot["stock"] == .integer(10))
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"stock\" FROM \"Product\"") == "30")
        #expect(shop.undo.canRedo)
        shop.undo.discardNextRedo()
        #expect(!shop.undo.canRedo)
    }

    @Test(arguments: StoreEngine.allCases) func undoOfAnEditToARecordAnotherWriterDeletedIsAConflict(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let tea = try shop.ctx.insert("Product", values: ["name": .string("Tea")])
        try shop.ctx.save()
        try shop.action("edit stock") { try tea.setValue(.integer(10), forKey: "stock") }
        try otherWriter(shop, "DELETE FROM \"Product\"")
        let error = #expect(throws: StoreError.self) { try shop.undo.undo(in: shop.ctx) }
        let c = try #require(error.flatMap(conflict))
        #expect(c.newVersion == 0 && c.persistedSnapshot == nil)
    }

    @Test(arguments: StoreEngine.allCases) func undoOfAnInsertAnotherWriterChangedIsAConflict(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        try shop.action("add Tea") { _ = try shop.ctx.insert("Product", values: ["name": .string("Tea")]) }
        try otherWriter(shop, "UPDATE \"Product\" SET \"price\" = 9, \"_version\" = \"_version\" + 1")
        let error = #expect(throws: StoreError.self) { try shop.undo.undo(in: shop.ctx) }
        #expect(error.flatMap(conflict)?.persistedSnapshot?["price"] == .double(9))
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"name\", \"price\" FROM \"Product\"") == "Tea|9.0")
    }

    @Test(arguments: StoreEngine.allCases) func undoOfARelationshipChangeAnotherWriterChangedIsAConflict(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let acme = try shop.ctx.insert("Provider", values: ["name": .string("Acme")])
        let bolt = try shop.ctx.insert("Provider", values: ["name": .string("Bolt")])
        let tea = try shop.ctx.insert("Product", values: ["name": .string("Tea")])
        try shop.ctx.save()
        try shop.action("set provider") { try tea.setToOne("provider", acme) }
        let column = try shop.text(shop.engine == .sqlite
            ? "SELECT name FROM pragma_table_info('Product') WHERE name LIKE '%provider%'"
            : "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'Product' AND column_name LIKE '%provider%'")
        try otherWriter(shop, "UPDATE \"Product\" SET \"\(column)\" = \(bolt.objectID.primaryKey!), \"_version\" = \"_version\" + 1")
        #expect(throws: StoreError.self) { try shop.undo.undo(in: shop.ctx) }
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"\(column)\" FROM \"Product\"") == "\(bolt.objectID.primaryKey!)")
    }

    @Test(arguments: StoreEngine.allCases) func undoOfAnotherFieldKeepsTheOtherWritersChange(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let tea = try shop.ctx.insert("Product", values: ["name": .string("Tea")])
        try shop.ctx.save()
        try shop.action("edit stock") { try tea.setValue(.integer(10), forKey: "stock") }
        try otherWriter(shop, "UPDATE \"Product\" SET \"price\" = 4, \"_version\" = \"_version\" + 1")
        try shop.undo.undo(in: shop.ctx)
        try shop.ctx.save()
        #expect(try shop.text("SELECT \"stock\", \"price\" FROM \"Product\"") == "0|4.0")
    }
}

/// Found by the randomized proof (seed 20261130): undoing the delete of a provider
/// put its products back under it, although another writer had meanwhile given one
/// of them (nullified by the delete) to another provider.
@Suite struct UndoRestoreConflictTests {
    /// People own items; deleting a person nullifies its items' owner.
    struct Owners {
        let dir = TempDir()
        private let opened: StoreEngine.Opened
        var store: PersistentStore { opened.store }
        let ctx: ManagedObjectContext
        let undo = UndoStack()

        init(_ engine: StoreEngine) throws {
            let model = try ModelBuilder()
                .entity("Person") {
                    $0.attribute("name", .string)
                    $0.toMany("items", "Item", inverse: "owner", deleteRule: .nullify)
                }
                .entity("Item") {
                    $0.attribute("name", .string)
                    $0.attribute("qty", .integer64)
                    $0.toOne("owner", "Person", inverse: "items")
                }
                .build()
            opened = try engine.open(model, in: dir)
            ctx = try ManagedObjectContext(store: opened.store)
            ctx.undoStack = undo
        }

        /// Saves Ada owning `items` (by name), then deletes her as one saved undoable action;
        /// returns the items, now without owner.
        func deleteAdaOwning(_ items: [String]) throws -> [ManagedObject] {
            let ada = try ctx.insert("Person", values: ["name": .string("Ada")])
            let objects = try items.map { try ctx.insert("Item", values: ["name": .string($0)]) }
            for item in objects { try item.setToOne("owner", ada) }
            try ctx.save()
            undo.beginGroup("delete Ada")
            try ctx.delete(ada)
            undo.endGroup()
            try ctx.save()
            return objects
        }

        func owner(of item: String) throws -> String {
            try opened.text(#"SELECT coalesce(p."name", '-') FROM "Item" i LEFT JOIN "Person" p ON p."_pk" = i."owner" WHERE i."name" = '\#(item)'"#)
        }

        /// What another program reads (`StoreEngine.Opened.text`).
        func text(_ sql: String) throws -> String { try opened.text(sql) }
    }

    @Test(arguments: StoreEngine.allCases) func undoDeleteNeverTakesBackAnObjectAnotherWriterRelatedElsewhere(_ engine: StoreEngine) throws {
        let o = try Owners(engine)
        let pen = try o.deleteAdaOwning(["pen", "cup"])[0]

        // Another writer gives the pen (now without owner) to Alan.
        let other = try ManagedObjectContext(store: o.store)
        let alan = try other.insert("Person", values: ["name": .string("Alan")])
        try other.existingObject(with: pen.objectID).setToOne("owner", alan)
        try other.save()

        let error = #expect(throws: StoreError.self) { try o.undo.undo(in: o.ctx) }
        guard case StoreError.conflicts(let conflicts)? = error else { return }
        #expect(conflicts.map(\.objectID) == [pen.objectID])
        o.ctx.rollback()
        try o.ctx.save()
        #expect(try o.owner(of: "pen") == "Alan")
        #expect(try o.owner(of: "cup") == "-")
        #expect(o.undo.canUndo && o.undo.undoActionName == "delete Ada")

        // Knowingly overwriting: Ada comes back with both items.
        try o.undo.undo(in: o.ctx, overwritingConflicts: true)
        try o.ctx.save()
        #expect(try o.owner(of: "pen") == "Ada")
        #expect(try o.owner(of: "cup") == "Ada")
    }

    @Test(arguments: StoreEngine.allCases) func undoDeleteRestoresRelationsNobodyElseChanged(_ engine: StoreEngine) throws {
        let o = try Owners(engine)
        let pen = try o.deleteAdaOwning(["pen"])[0]
        // Another writer changes something else on the pen: no conflict.
        let other = try ManagedObjectContext(store: o.store)
        try other.existingObject(with: pen.objectID).setValue(.integer(5), forKey: "qty")
        try other.save()
        try o.undo.undo(in: o.ctx)
        try o.ctx.save()
        #expect(try o.text(#"SELECT i."qty", p."name" FROM "Item" i JOIN "Person" p ON p."_pk" = i."owner""#) == "5|Ada")
    }
}
