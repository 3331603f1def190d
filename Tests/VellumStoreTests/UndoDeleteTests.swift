import Foundation
import Testing
@testable import VellumStore

/// Issue #11, item 11: undoing a delete restores the same object (key, ID URI,
/// values, relationships of every kind, and what its delete cascaded to), on both
/// engines (`StoreEngine`).
@Suite struct UndoDeleteTests {
    struct Shop {
        let dir = TempDir()
        let engine: StoreEngine
        private let opened: StoreEngine.Opened
        var store: PersistentStore { opened.store }
        let ctx: ManagedObjectContext
        let undo = UndoStack()

        init(_ engine: StoreEngine) throws {
            self.engine = engine
            opened = try engine.open(Fixtures.shopModel(), in: dir)
            ctx = try ManagedObjectContext(store: opened.store)
            ctx.undoStack = undo
        }

        /// Another program's write: the `sqlite3` shell, or a plain PostgreSQL connection.
        func outside(_ sql: String) throws { try opened.outside(sql) }
        /// What another program reads (`StoreEngine.Opened.text`).
        func text(_ sql: String) throws -> String { try opened.text(sql) }

        /// Runs `body` as one undoable action and saves it.
        func action(_ name: String, _ body: () throws -> Void) throws {
            undo.beginGroup(name)
            try body()
            undo.endGroup()
            try ctx.save()
        }
    }

    @Test(arguments: StoreEngine.allCases) func undoOfADeleteRestoresTheSameObjectWithItsRelationships(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let ctx = shop.ctx
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(3.5), "stock": .integer(7)])
        let mate = try ctx.insert("Product", values: ["name": .string("Mate")])
        let green = try ctx.insert("Tag", values: ["name": .string("green")])
        let hot = try ctx.insert("Tag", values: ["name": .string("hot")])
        let front = try ctx.insert("Image", values: ["url": .uri(URL(string: "https://x/front.png")!)])
        let back = try ctx.insert("Image", values: ["url": .uri(URL(string: "https://x/back.png")!)])
        try tea.setToOne("provider", acme)
        try mate.setToOne("provider", acme)
        try tea.setToMany("tags", [green, hot])
        try tea.setToMany("images", [front, back])
        try ctx.save()
        let teaURI = tea.objectID.uriString, teaKey = tea.objectID.primaryKey!
        let frontURI = front.objectID.uriString, backURI = back.objectID.uriString

        try shop.action("delete Tea") { try ctx.delete(tea) }
        #expect(try shop.text("SELECT count(*) FROM \"Product\" WHERE \"_pk\" = \(teaKey)") == "0")
        #expect(try shop.text("SELECT count(*) FROM \"Image\"") == "0")  // cascaded

        #expect(try shop.undo.undo(in: ctx) == "delete Tea")
        #expect(ctx.registeredObjects.filter { $0.objectID.uriString == teaURI }.count == 1)
        try ctx.save()

        let restored = try ctx.existingObject(with: try #require(store(shop).objectID(uri: teaURI)))
        #expect(restored.objectID.uriString == teaURI)
        #expect(restored.objectID.primaryKey == teaKey)
        #expect(try restored.value(forKey: "price") == .double(3.5))
        #expect(try restored.value(forKey: "stock") == .integer(7))
        #expect(try restored.toOne("provider") === acme)
        #expect(Set(try restored.toMany("tags").map(\.objectID)) == [green.objectID, hot.objectID])
        #expect(try restored.toMany("images").map(\.objectID.uriString) == [frontURI, backURI])
        #expect(try acme.toMany("products").contains(restored))
        #expect(try green.toMany("products").contains(restored))

        // What another program sees in the file: the row, its foreign key, join rows, cascaded children.
        let fresh = try ManagedObjectContext(store: shop.store)
        let again = try fresh.existingObject(with: restored.objectID)
        #expect(try again.toOne("provider")?.objectID == acme.objectID)
        #expect(Set(try again.toMany("tags").map(\.objectID)) == [green.objectID, hot.objectID])
        #expect(try again.toMany("images").map(\.objectID.uriString) == [frontURI, backURI])
        #expect(try shop.text("SELECT \"name\", \"price\", \"stock\" FROM \"Product\" WHERE \"_pk\" = \(teaKey)") == "Tea|3.5|7")
        #expect(try shop.text("SELECT count(*) FROM \"Image\"") == "2")
        if engine == .sqlite {
            #expect(try shop.text("PRAGMA foreign_key_check") == "")
            #expect(try shop.text("PRAGMA integrity_check") == "ok")
        }

        // Keys are still never reused by new inserts.
        let maxKey = Int64(try shop.text("SELECT max(\"_pk\") FROM \"Product\""))!
        try shop.action("delete Mate") { try ctx.delete(mate) }
        let chai = try ctx.insert("Product", values: ["name": .string("Chai")])
        try ctx.save()
        #expect(chai.objectID.primaryKey! > maxKey)
    }

    @Test(arguments: StoreEngine.allCases) func redoOfACascadingDeleteDeletesTheChildrenAgain(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let ctx = shop.ctx
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        let front = try ctx.insert("Image", values: ["url": .uri(URL(string: "https://x/front.png")!)])
        try tea.setToMany("images", [front])
        try ctx.save()
        try shop.action("delete Tea") { try ctx.delete(tea) }
        try shop.undo.undo(in: ctx)
        try ctx.save()
        #expect(try shop.text("SELECT count(*) FROM \"Image\"") == "1")
        #expect(try shop.undo.redo(in: ctx) == "delete Tea")
        try ctx.save()
        #expect(try shop.text("SELECT count(*) FROM \"Product\"") == "0")
        #expect(try shop.text("SELECT count(*) FROM \"Image\"") == "0")
        try shop.undo.undo(in: ctx)
        try ctx.save()
        #expect(try shop.text("SELECT count(*) FROM \"Image\"") == "1")
        #expect(try shop.text("SELECT count(*) FROM \"Product\" WHERE \"_pk\" = \(tea.objectID.primaryKey!)") == "1")
    }

    @Test(arguments: StoreEngine.allCases) func undoOfADeleteBeforeSavingRevivesTheObject(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let ctx = shop.ctx
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        try tea.setToOne("provider", acme)
        try ctx.save()
        shop.undo.beginGroup("delete Tea")
        try ctx.delete(tea)
        shop.undo.endGroup()
        try shop.undo.undo(in: ctx)
        try ctx.save()
        #expect(try shop.text("SELECT count(*) FROM \"Product\"") == "1")
        #expect(try ctx.existingObject(with: tea.objectID).toOne("provider") === acme)
    }

    @Test(arguments: StoreEngine.allCases) func restoringAKeyTakenAgainFailsClearly(_ engine: StoreEngine) throws {
        let shop = try Shop(engine)
        let ctx = shop.ctx
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        try ctx.save()
        let key = tea.objectID.primaryKey!
        try shop.action("delete Tea") { try ctx.delete(tea) }
        // Impossible through Vellum (keys are never reused); another program does it.
        #expect((try? shop.outside("INSERT INTO \"Product\" (\"_pk\", \"_entity\", \"_version\", \"name\") VALUES (\(key), 'Product', 1, 'Squatter')")) != nil)
        #expect {
            try shop.undo.undo(in: ctx)
            try ctx.save()
        } throws: { error in
            "\(error)".contains(tea.objectID.uriString) && "\(error)".contains("taken")
        }
        ctx.rollback()
        #expect(try shop.text("SELECT \"name\" FROM \"Product\"") == "Squatter")
        #expect(shop.undo.canUndo)  // the action is still there to retry
    }

    private func store(_ shop: Shop) -> PersistentStore { shop.store }
}
