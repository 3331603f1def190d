import Foundation
import Testing
@testable import VellumStore

/// The uniqueness check of a save asks the store once per table and constraint (in chunks),
/// not once per object: a duplicate inside the save and one against the store must both be
/// reported, in save order, whatever chunk they fall in.
@Suite struct UniquenessBatchTests {
    private static func conflicts(_ error: any Error) -> [MergeConflict]? {
        if case StoreError.conflicts(let cs) = error { return cs }
        return nil
    }

    private static func existing(_ c: MergeConflict) -> ObjectID? {
        if case .uniqueness(_, let existing) = c.kind { return existing }
        return nil
    }

    @Test(arguments: StoreEngine.allCases) func duplicateInsideTheSaveAndAgainstTheStoreAreBothReported(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let first = try ManagedObjectContext(store: store)
        let acme = try first.insert("Provider", values: ["name": .string("Acme")])
        try first.save()

        let ctx = try ManagedObjectContext(store: store)
        // More than one chunk of the store query, the store duplicate in the second.
        var objects: [ManagedObject] = []
        for i in 0..<(ConflictResolver.uniquenessChunk + 20) {
            objects.append(try ctx.insert("Provider", values: ["name": .string("P\(i)")]))
        }
        let againstStore = try ctx.insert("Provider", values: ["name": .string("Acme")])
        let beta = try ctx.insert("Provider", values: ["name": .string("Beta")])
        let betaAgain = try ctx.insert("Provider", values: ["name": .string("Beta")])
        var thrown: [MergeConflict] = []
        #expect { try ctx.save() } throws: { e in
            thrown = Self.conflicts(e) ?? []
            return true
        }
        #expect(thrown.count == 2)
        #expect(thrown.map(\.objectID) == [againstStore.objectID, betaAgain.objectID])
        #expect(thrown.map { Self.existing($0) } == [acme.objectID, beta.objectID])
        #expect(thrown.allSatisfy { if case .uniqueness(let attributes, _) = $0.kind { attributes == ["name"] } else { false } })
        // Nothing was written.
        let rows = try shop.read(#"SELECT "name" FROM "Provider""#)
        #expect(rows == [[.string("Acme")]])

        // Without the duplicate inside the save, object-trump takes over the stored row.
        try ctx.delete(betaAgain)
        ctx.mergePolicy = .mergeByPropertyObjectTrump
        try ctx.save()
        #expect(againstStore.objectID == acme.objectID)
        #expect(try shop.count("Provider") == Int64(objects.count + 2))
    }

    @Test(arguments: StoreEngine.allCases) func storeDuplicatesOfEveryChunkAreReported(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let shop = try engine.open(Fixtures.shopModel(), in: dir)
        let store = shop.store
        let first = try ManagedObjectContext(store: store)
        let count = ConflictResolver.uniquenessChunk * 2 + 7
        for i in stride(from: 0, to: count, by: 250) { try first.insert("Provider", values: ["name": .string("P\(i)")]) }
        try first.save()
        let ctx = try ManagedObjectContext(store: store)
        for i in 0..<count { try ctx.insert("Provider", values: ["name": .string("P\(i)")]) }
        var thrown: [MergeConflict] = []
        #expect { try ctx.save() } throws: { e in
            thrown = Self.conflicts(e) ?? []
            return true
        }
        let names = thrown.compactMap { $0.objectSnapshot["name"]?.stringValue }
        #expect(names == stride(from: 0, to: count, by: 250).map { "P\($0)" })
    }

    /// A two-attribute constraint on a copy of a Core Data store (Person: firstName, lastName).
    @Test func compoundConstraintOnACoreDataStore() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        defer { #expect(copy.originalUnchanged()) }
        let store = try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
        let ctx = try ManagedObjectContext(store: store)
        let stored = try #require(try ctx.fetch("Person", where: QueryPredicate(format: "firstName == 'Alex'")).first)
        let ctx2 = try ManagedObjectContext(store: store)
        try ctx2.insert("Person", values: ["firstName": .string("Alex"), "lastName": .string("Other"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        let againstStore = try ctx2.insert("Person", values: ["firstName": .string("Alex"), "lastName": .string("Rathbun"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        let one = try ctx2.insert("Person", values: ["firstName": .string("Zed"), "lastName": .string("Zed"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        let two = try ctx2.insert("Person", values: ["firstName": .string("Zed"), "lastName": .string("Zed"), "id": .uuid(UUID()), "updatedAt": .date(Date())])
        var thrown: [MergeConflict] = []
        #expect { try ctx2.save() } throws: { e in
            thrown = Self.conflicts(e) ?? []
            return true
        }
        #expect(thrown.map(\.objectID) == [againstStore.objectID, two.objectID])
        #expect(thrown.map { Self.existing($0) } == [stored.objectID, one.objectID])
        #expect(try sqliteShellOutput(copy.url.path, "SELECT count(*) FROM ZPERSON WHERE ZFIRSTNAME IN ('Alex', 'Zed')") == ["1"])
    }
}
