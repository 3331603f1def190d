import Foundation
import Testing
@testable import VellumStore

/// Issue #11, torture run "Dangling references": a to-one written by another
/// program that points at a missing row can be cleared, and its object deleted.
@Suite struct DanglingReferenceTests {
    /// A product whose `provider` column names a provider that does not exist.
    func danglingProduct(_ dir: TempDir) throws -> (PersistentStore, ObjectID) {
        let store = try Fixtures.openShop(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.insert("Product", values: ["name": .string("Orphan")])
        try ctx.save()
        #expect(try sqliteShell(store.path, "UPDATE Product SET provider = 999") == 0)
        return (store, p.objectID)
    }

    @Test func danglingToOneCanBeCleared() throws {
        let dir = TempDir()
        let (store, id) = try danglingProduct(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.existingObject(with: id)
        try p.setToOne("provider", nil)
        try ctx.save()
        #expect(try sqliteRows(store.path, "SELECT quote(provider) FROM Product") == ["NULL"])
    }

    @Test func danglingToOneCanBeReplaced() throws {
        let dir = TempDir()
        let (store, id) = try danglingProduct(dir)
        let ctx = try ManagedObjectContext(store: store)
        let provider = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let p = try ctx.existingObject(with: id)
        try p.setToOne("provider", provider)
        try ctx.save()
        #expect(try sqliteRows(store.path, "SELECT provider FROM Product") == ["\(try #require(provider.objectID.primaryKey))"])
    }

    @Test func objectWithDanglingToOneCanBeDeleted() throws {
        let dir = TempDir()
        let (store, id) = try danglingProduct(dir)
        let ctx = try ManagedObjectContext(store: store)
        try ctx.delete(try ctx.existingObject(with: id))
        try ctx.save()
        #expect(try sqliteRows(store.path, "SELECT count(*) FROM Product") == ["0"])
    }

    @Test func danglingToOneReadsAsAMissingTarget() throws {
        let dir = TempDir()
        let (store, id) = try danglingProduct(dir)
        let ctx = try ManagedObjectContext(store: store)
        let p = try ctx.existingObject(with: id)
        let target = try #require(try p.toOne("provider"))
        #expect(target.isMissing)
        #expect(target.objectID.primaryKey == 999)
        do {
            _ = try target.value(forKey: "name")
            Issue.record("a missing row was read")
        } catch StoreError.objectNotFound(let missing) {
            #expect(missing == target.objectID)
        }

    }
}
