import Foundation
import Testing
@testable import VellumStore

/// Each merge policy on the same scripted conflict: another writer changed
/// price and stock; this context changed price and name. On both engines (`StoreEngine`).
@Suite struct MergePolicyTests {
    struct Outcome: Equatable { var name: String; var price: Double; var stock: Int64 }

    func run(_ policy: MergePolicy, _ engine: StoreEngine) throws -> (Outcome?, Error?) {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let setup = try ManagedObjectContext(store: store)
        let id = try setup.insert("Product", values: ["name": .string("A"), "price": .double(1), "stock": .integer(1)]).objectID
        try setup.save()
        let permanent = store.permanentID(for: id)!
        let mine = try ManagedObjectContext(store: store)
        mine.mergePolicy = policy
        let o = try mine.existingObject(with: permanent)
        let theirs = try ManagedObjectContext(store: store)
        let t = try theirs.existingObject(with: permanent)
        try t.setValue(.double(2), forKey: "price")
        try t.setValue(.integer(5), forKey: "stock")
        try theirs.save()
        try o.setValue(.double(3), forKey: "price")
        try o.setValue(.string("X"), forKey: "name")
        var failure: Error?
        do { try mine.save() } catch { failure = error }
        let row = try shop.read(#"SELECT "name", "price", "stock" FROM "Product""#).first
        return (row.map { Outcome(name: $0[0].stringValue!, price: $0[1].doubleValue!, stock: $0[2].integerValue!) }, failure)
    }

    @Test(arguments: StoreEngine.allCases) func errorPolicyFailsAndKeepsStore(_ engine: StoreEngine) throws {
        let (row, error) = try run(.error, engine)
        #expect(row == Outcome(name: "A", price: 2, stock: 5))
        guard case StoreError.conflicts(let cs)? = error as? StoreError else { Issue.record("expected conflicts, got \(String(describing: error))"); return }
        #expect(cs.count == 1 && cs[0].oldVersion == 1 && cs[0].newVersion == 2)
    }

    @Test(arguments: StoreEngine.allCases) func storeTrump(_ engine: StoreEngine) throws {
        let (row, error) = try run(.mergeByPropertyStoreTrump, engine)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 2, stock: 5))
    }

    @Test(arguments: StoreEngine.allCases) func objectTrump(_ engine: StoreEngine) throws {
        let (row, error) = try run(.mergeByPropertyObjectTrump, engine)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 3, stock: 5))
    }

    @Test(arguments: StoreEngine.allCases) func overwrite(_ engine: StoreEngine) throws {
        let (row, error) = try run(.overwrite, engine)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 3, stock: 1))
    }

    @Test(arguments: StoreEngine.allCases) func rollbackPolicy(_ engine: StoreEngine) throws {
        let (row, error) = try run(.rollback, engine)
        #expect(error == nil)
        #expect(row == Outcome(name: "A", price: 2, stock: 5))
    }

    @Test(arguments: StoreEngine.allCases) func deletedUnderneath(_ engine: StoreEngine) throws {
        for policy in [MergePolicy.error, .mergeByPropertyObjectTrump, .rollback] {
            let dir = TempDir()
            let shop = try engine.open(Fixtures.shopModel(), in: dir)
            let store = shop.store
            let a = try ManagedObjectContext(store: store)
            a.mergePolicy = policy
            let o = try a.insert("Product", values: ["name": .string("A")])
            try a.save()
            let b = try ManagedObjectContext(store: store)
            try b.delete(b.existingObject(with: o.objectID))
            try b.save()
            try o.setValue(.string("B"), forKey: "name")
            do {
                try a.save()
                #expect(policy == .rollback, "\(policy) should report the deleted row")
            } catch StoreError.conflicts(let cs) {
                #expect(policy != .rollback)
                #expect(cs.first?.newVersion == 0 && cs.first?.persistedSnapshot == nil)
            }
            #expect(try shop.count("Product") == 0)
        }
    }
}
