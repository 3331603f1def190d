import Foundation
import Testing
import CSQLite
@testable import VellumStore

/// On a SQLite file and on a PostgreSQL schema (`StoreEngine`); the rows as another program
/// reads them are checked by `StoreEngineStoreTests`.
@Suite struct ContextTests {
    @Test(arguments: StoreEngine.allCases) func insertSaveFetchRoundTrip(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .integer(3), "sku": .string("TEA-1")])
        #expect(p.objectID.isTemporary)
        #expect(try p["price"] == .double(3))  // integer widened to double
        #expect(try p["stock"] == .integer(0))  // default
        #expect(ctx.hasChanges)
        let saved = try ctx.save()
        #expect(!p.objectID.isTemporary)
        #expect(saved.inserted == [p.objectID])
        #expect(!ctx.hasChanges)

        let other = try ManagedObjectContext(store: store)
        let fetched = try other.fetch("Product")
        #expect(fetched.count == 1)
        #expect(try fetched[0]["name"] == .string("Tea"))
        #expect(fetched[0].objectID == p.objectID)
        // Uniquing: one object per ID per context.
        #expect(try other.object(with: p.objectID) === fetched[0])
    }

    @Test(arguments: StoreEngine.allCases) func relationshipsMaintainInverses(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let other = try ctx.insert("Provider", values: ["name": .string("Other")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        try tea.setToOne("provider", acme)
        #expect(try acme.toMany("products") == [tea])
        try tea.setToOne("provider", other)
        #expect(try acme.toMany("products").isEmpty)
        #expect(try other.toMany("products") == [tea])
        let green = try ctx.insert("Tag", values: ["name": .string("green")])
        try tea.add(green, to: "tags")
        #expect(try green.toMany("products") == [tea])
        try ctx.save()

        let ctx2 = try ManagedObjectContext(store: store)
        let tea2 = try ctx2.existingObject(with: tea.objectID)
        #expect(try tea2.toOne("provider")?.objectID == other.objectID)
        #expect(try tea2.toMany("tags").map(\.objectID) == [green.objectID])
        let green2 = try ctx2.existingObject(with: green.objectID)
        #expect(try green2.toMany("products").map(\.objectID) == [tea.objectID])
        // Change from the unloaded side: the loaded inverse reflects it before save.
        let acme2 = try ctx2.existingObject(with: acme.objectID)
        try tea2.setToOne("provider", acme2)
        #expect(try acme2.toMany("products") == [tea2])
        try ctx2.save()
        let ctx3 = try ManagedObjectContext(store: store)
        #expect(try ctx3.existingObject(with: acme.objectID).toMany("products").map(\.objectID) == [tea.objectID])
        #expect(try ctx3.existingObject(with: other.objectID).toMany("products").isEmpty)
    }

    /// `add(_:to:)` appends once, moves an object from its previous owner when the
    /// inverse is a to-one, keeps both sides of a many-to-many, and saves as set.
    @Test(arguments: StoreEngine.allCases) func addingToAToManyOneByOne(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let other = try ctx.insert("Provider", values: ["name": .string("Other")])
        let products = try (0..<5).map { try ctx.insert("Product", values: ["name": .string("p\($0)")]) }
        for p in products { try acme.add(p, to: "products") }
        try acme.add(products[2], to: "products")                 // already there: no change
        #expect(try acme.toMany("products") == products)
        #expect(try products.allSatisfy { try $0.toOne("provider") === acme })
        try other.add(products[1], to: "products")                // moves it
        #expect(try acme.toMany("products") == [products[0], products[2], products[3], products[4]])
        #expect(try other.toMany("products") == [products[1]])
        #expect(try products[1].toOne("provider") === other)
        let tag = try ctx.insert("Tag", values: ["name": .string("t")])
        try tag.add(products[0], to: "products")
        try tag.add(products[0], to: "products")
        #expect(try products[0].toMany("tags") == [tag] && tag.toMany("products") == [products[0]])
        #expect(throws: StoreError.self) { try acme.add(tag, to: "products") }    // wrong entity
        #expect(throws: StoreError.self) { try products[0].add(acme, to: "provider") } // a to-one
        try ctx.save()
        let fresh = try ManagedObjectContext(store: store)
        #expect(try fresh.existingObject(with: acme.objectID).toMany("products").count == 4)
        #expect(try fresh.existingObject(with: other.objectID).toMany("products").map(\.objectID) == [products[1].objectID])
        #expect(try fresh.existingObject(with: tag.objectID).toMany("products").map(\.objectID) == [products[0].objectID])
    }

    @Test(arguments: StoreEngine.allCases) func orderedToManyKeepsOrder(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        let images = try (0..<3).map { i in try ctx.insert("Image", values: ["url": .uri(URL(string: "https://x/\(i)")!)]) }
        try tea.setToMany("images", [images[2], images[0], images[1]])
        try ctx.save()
        let ctx2 = try ManagedObjectContext(store: store)
        let loaded = try ctx2.existingObject(with: tea.objectID).toMany("images").map(\.objectID)
        #expect(loaded == [images[2], images[0], images[1]].map(\.objectID))
    }

    @Test(arguments: StoreEngine.allCases) func deleteRules(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let acme = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let tea = try ctx.insert("Product", values: ["name": .string("Tea")])
        let img = try ctx.insert("Image", values: [:])
        let tag = try ctx.insert("Tag", values: ["name": .string("t")])
        try tea.setToOne("provider", acme)
        try tea.add(img, to: "images")
        try tea.add(tag, to: "tags")
        try ctx.save()

        // Deny: provider still has products.
        try ctx.delete(acme)
        #expect {
            try ctx.save()
        } throws: { error in
            guard case StoreError.deleteDenied(let e, let r, let n) = error else { return false }
            return e == "Provider" && r == "products" && n == 1
        }
        ctx.rollback()
        #expect(!acme.isDeleted)

        // Cascade to images, nullify on tags and provider.
        try ctx.delete(tea)
        #expect(img.isDeleted)
        #expect(try acme.toMany("products").isEmpty)
        #expect(try tag.toMany("products").isEmpty)
        try ctx.save()
        #expect(try shop.count("Image") == 0)
        #expect(try shop.count("Product_tags") == 0)
        #expect(try shop.count("Tag") == 1)
        // Now the deny no longer blocks.
        try ctx.delete(acme)
        try ctx.save()
        #expect(try shop.count("Provider") == 0)
    }

    @Test(arguments: StoreEngine.allCases) func badInputIsRefusedAndNothingIsLost(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        #expect(throws: StoreError.self) { try ctx.insert("Product", values: ["nmae": .string("x")]) }
        #expect(throws: StoreError.self) { try ctx.insert("Nope") }
        let p = try ctx.insert("Product", values: ["name": .string("Tea")])
        #expect(throws: StoreError.self) { try p.setValue(.string("cheap"), forKey: "price") }
        #expect(throws: StoreError.self) { try p.setValue(.integer(70_000), forKey: "stock") }  // Int16 range
        try p.setValue(.double(-1), forKey: "price")
        try p.setValue(.string("bad sku"), forKey: "sku")
        var failures: [ValidationFailure] = []
        do { try ctx.save() } catch StoreError.multipleValidation(let fs) { failures = fs }
        #expect(Set(failures.map(\.key)) == ["price", "sku"])
        // Nothing written, pending changes kept; fix and retry.
        #expect(try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Product")) == 0)
        #expect(p.isInserted)
        try p.setValue(.double(2), forKey: "price")
        try p.setValue(.string("TEA-9"), forKey: "sku")
        try ctx.save()
        #expect(try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Product")) == 1)
        // Required value missing.
        _ = try ctx.insert("Provider")
        #expect { try ctx.save() } throws: { e in
            if case StoreError.validation(let f) = e { return f.entity == "Provider" && f.key == "name" && f.reason == "is required" }
            return false
        }
    }

    @Test(arguments: StoreEngine.allCases) func uniquenessConflictIsReportedThenUpsertsUnderObjectTrump(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Provider", values: ["name": .string("Acme"), "country": .string("FR")])
        try ctx.save()
        let ctx2 = try ManagedObjectContext(store: store)
        let dup = try ctx2.insert("Provider", values: ["name": .string("Acme"), "country": .string("DE")])
        #expect { try ctx2.save() } throws: { e in
            if case StoreError.conflicts(let cs) = e, case .uniqueness(let attrs, _) = cs.first?.kind { return attrs == ["name"] }
            return false
        }
        ctx2.mergePolicy = .mergeByPropertyObjectTrump
        try ctx2.save()
        let rows = try shop.read(#"SELECT "name", "country" FROM "Provider""#)
        #expect(rows == [[.string("Acme"), .string("DE")]])
        #expect(!dup.objectID.isTemporary)
    }

    @Test(arguments: StoreEngine.allCases) func rollbackAndRefresh(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        try ctx.save()
        try p.setValue(.double(5), forKey: "price")
        let q = try ctx.insert("Product", values: ["name": .string("Coffee")])
        ctx.rollback()
        #expect(try p["price"] == .double(1))
        #expect(q.isDeleted)
        #expect(try ctx.fetch("Product").count == 1)
        // Another context changes the row; refresh picks it up, keeping local edits when merging.
        let other = try ManagedObjectContext(store: store)
        try other.existingObject(with: p.objectID).setValue(.double(9), forKey: "price")
        try other.save()
        try p.setValue(.string("Green tea"), forKey: "name")
        try ctx.refresh(p, mergeChanges: true)
        #expect(try p["price"] == .double(9))
        #expect(try p["name"] == .string("Green tea"))
        try ctx.refresh(p, mergeChanges: false)
        #expect(try p["name"] == .string("Tea"))
    }

    @Test(arguments: StoreEngine.allCases) func optimisticLockingConflictListsBothVersions(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let a = try ManagedObjectContext(store: store)
        let p = try a.insert("Product", values: ["name": .string("Tea"), "price": .double(1)])
        try a.save()
        let b = try ManagedObjectContext(store: store)
        try b.existingObject(with: p.objectID).setValue(.double(2), forKey: "price")
        try b.save()
        try p.setValue(.double(3), forKey: "price")
        #expect { try a.save() } throws: { e in
            guard case StoreError.conflicts(let cs) = e, let c = cs.first else { return false }
            return c.oldVersion == 1 && c.newVersion == 2 && c.persistedSnapshot?["price"] == .double(2)
                && c.objectSnapshot["price"] == .double(3) && c.cachedSnapshot["price"] == .double(1)
        }
        #expect(p.hasChanges)
    }

    @Test(arguments: StoreEngine.allCases) func inheritanceSharesRootTable(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        #expect(throws: StoreError.self) { try ctx.insert("Item") }
        try ctx.insert("Task", values: ["title": .string("write"), "done": .bool(true)])
        try ctx.insert("Note", values: ["title": .string("memo"), "body": .string("hi")])
        try ctx.save()
        let fresh = try ManagedObjectContext(store: store)
        let items = try fresh.fetch("Item")
        #expect(Set(items.map(\.entity.name)) == ["Task", "Note"])
        #expect(try fresh.fetch("Task").count == 1)
        #expect(try shop.count("Item") == 2)
    }

    @Test(arguments: StoreEngine.allCases) func fetchSeesPendingChanges(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        let a = try ctx.insert("Product", values: ["name": .string("A")])
        try ctx.insert("Product", values: ["name": .string("B")])
        try ctx.save()
        try ctx.insert("Product", values: ["name": .string("C")])
        try ctx.delete(a)
        let names = try ctx.fetch("Product").map { try $0["name"] }
        #expect(Set(names) == [.string("B"), .string("C")])
        #expect(try ctx.count(FetchRequest(entityName: "Product")) == 2)
    }

    @Test(arguments: StoreEngine.allCases) func isUniqueConvenience(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Provider", values: ["name": .string("Acme")])
        #expect(try !ctx.isUnique(entity: "Provider", attribute: "name", value: .string("Acme")))
        try ctx.save()
        #expect(try !ctx.isUnique(entity: "Provider", attribute: "name", value: .string("Acme")))
        #expect(try ctx.isUnique(entity: "Provider", attribute: "name", value: .string("Other")))
        #expect(throws: StoreError.self) { try ctx.isUnique(entity: "Provider", attribute: "nope", value: .null) }
    }

    @Test(arguments: StoreEngine.allCases) func faultsLoadOnAccessAndBatchesLoadTogether(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let ctx = try ManagedObjectContext(store: store)
        for i in 0..<50 { try ctx.insert("Product", values: ["name": .string("p\(i)")]) }
        try ctx.save()
        let fresh = try ManagedObjectContext(store: store)
        let objects = try fresh.fetch(FetchRequest(entityName: "Product", fetchBatchSize: 20))
        #expect(objects.allSatisfy { $0.isFault })
        _ = try objects[25]["name"]
        #expect(objects[20..<40].allSatisfy { !$0.isFault })
        #expect(objects[0..<20].allSatisfy { $0.isFault })
        let ids = try fresh.fetchObjectIDs(FetchRequest(entityName: "Product"))
        #expect(ids.count == 50)
    }
}

@Suite struct CrossContextTests {
    /// Objects never cross contexts: where the compiler cannot stop it (both
    /// contexts on one thread), the context refuses with a clear error.
    @Test(arguments: StoreEngine.allCases) func objectsOfAnotherContextAreRefused(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let a = try ManagedObjectContext(store: store)
        let b = try ManagedObjectContext(store: store)
        let acme = try a.insert("Provider", values: ["name": .string("Acme")])
        try a.save()
        let tea = try b.insert("Product", values: ["name": .string("Tea")])
        #expect { try tea.setToOne("provider", acme) } throws: { e in
            if case StoreError.wrongContext(let detail) = e { return detail.contains("Product.provider") }
            return false
        }
        #expect { try b.delete(acme) } throws: { e in
            if case StoreError.wrongContext = e { return true } else { return false }
        }
        // The ID crosses: the object is fetched in the other context.
        try tea.setToOne("provider", b.object(with: acme.objectID))
        try b.save()
    }
}
