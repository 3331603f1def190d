import Foundation
import Testing
@testable import VellumStore

/// Each merge policy on the same scripted conflict: another writer changed
/// price and stock; this context changed price and name.
@Suite struct MergePolicyTests {
    struct Outcome: Equatable { var name: String; var price: Double; var stock: Int64 }

    func run(_ policy: MergePolicy) throws -> (Outcome?, Error?) {
        let dir = TempDir()
        let store = try Fixtures.openShop(dir)
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
        let row = try Connection(path: dir.file("shop.sqlite").path).rows("SELECT name, price, stock FROM Product").first
        return (row.map { Outcome(name: $0[0].stringValue!, price: $0[1].doubleValue!, stock: $0[2].integerValue!) }, failure)
    }

    @Test func errorPolicyFailsAndKeepsStore() throws {
        let (row, error) = try run(.error)
        #expect(row == Outcome(name: "A", price: 2, stock: 5))
        guard case StoreError.conflicts(let cs)? = error as? StoreError else { Issue.record("expected conflicts, got \(String(describing: error))"); return }
        #expect(cs.count == 1 && cs[0].oldVersion == 1 && cs[0].newVersion == 2)
    }

    @Test func storeTrump() throws {
        let (row, error) = try run(.mergeByPropertyStoreTrump)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 2, stock: 5))
    }

    @Test func objectTrump() throws {
        let (row, error) = try run(.mergeByPropertyObjectTrump)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 3, stock: 5))
    }

    @Test func overwrite() throws {
        let (row, error) = try run(.overwrite)
        #expect(error == nil)
        #expect(row == Outcome(name: "X", price: 3, stock: 1))
    }

    @Test func rollbackPolicy() throws {
        let (row, error) = try run(.rollback)
        #expect(error == nil)
        #expect(row == Outcome(name: "A", price: 2, stock: 5))
    }

    @Test func deletedUnderneath() throws {
        for policy in [MergePolicy.error, .mergeByPropertyObjectTrump, .rollback] {
            let dir = TempDir()
            let store = try Fixtures.openShop(dir)
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
            #expect(try Connection(path: dir.file("shop.sqlite").path).scalarInt("SELECT count(*) FROM Product") == 0)
        }
    }
}
