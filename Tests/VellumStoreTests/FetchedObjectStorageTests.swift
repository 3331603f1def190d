import Foundation
import Testing
@testable import VellumStore

/// Fetched objects read their values from rows shared by the whole fetch
/// (`RowBlock`) until first changed; these check what a user could notice.
@Suite struct FetchedObjectStorageTests {
    static func peopleModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") {
                $0.attribute("name", .string)
                $0.attribute("age", .integer32)
                $0.attribute("nickname", .string, transient: true)
                $0.toOne("manager", "Person", inverse: "reports")
                $0.toMany("reports", "Person", inverse: "manager")
            }
            .build()
    }

    /// Enough rows to span several row blocks.
    static let count = 1_000

    static func populated(_ dir: TempDir) throws -> PersistentStore {
        let store = try PersistentStore(url: dir.file("people.sqlite"), model: peopleModel())
        let ctx = try ManagedObjectContext(store: store)
        var previous: ManagedObject?
        for i in 0..<count {
            let p = try ctx.insert("Person", values: ["name": .string("person \(i)"), "age": .integer(Int64(i))])
            // Each person managed by the one before; the first manages itself.
            try p.setToOne("manager", previous ?? p)
            previous = p
        }
        try ctx.save()
        return store
    }

    @Test func changingOneFetchedObjectLeavesItsNeighboursAlone() throws {
        let dir = TempDir()
        let store = try Self.populated(dir)
        let ctx = try ManagedObjectContext(store: store)
        let people = try ctx.fetch("Person", sortedBy: [QuerySortDescriptor("age")])
        #expect(people.count == Self.count)
        try people[500].setValue(.string("changed"), forKey: "name")
        try people[500].setValue(.string("nick"), forKey: "nickname")
        for (i, p) in people.enumerated() {
            let expected = i == 500 ? "changed" : "person \(i)"
            #expect(try p["name"] == .string(expected))
            #expect(try p["age"] == .integer(Int64(i)))
        }
        #expect(try people[500].committedValues()["name"] == .string("person 500"))
        #expect(try people[499]["nickname"] == .null)
        #expect(people[500].changedKeys == ["name", "nickname"])
        ctx.rollback()
        #expect(try people[500]["name"] == .string("person 500"))
        try people[7].setValue(.integer(-7), forKey: "age")
        try ctx.save()
        let fresh = try ManagedObjectContext(store: store)
        #expect(try fresh.fetch("Person", where: try QueryPredicate(format: "age < 0")).map { try $0["name"] } == [.string("person 7")])
    }

    @Test func objectsKeepTheirValuesAfterTheirContextIsGone() throws {
        let dir = TempDir()
        let store = try Self.populated(dir)
        var ctx: ManagedObjectContext? = try ManagedObjectContext(store: store)
        let people = try ctx!.fetch("Person", sortedBy: [QuerySortDescriptor("age")])
        ctx = nil
        #expect(people[0].context == nil)
        #expect(try people[999].value(forKey: "name") == .string("person 999"))
        #expect(try people[999].dictionaryOfValues()["age"] == .integer(999))
    }

    /// A row that refers to itself or to a later row in the same fetch gets the
    /// one registered object for that ID, not a second one.
    @Test func selfReferencesInOneFetchAreUniqued() throws {
        let dir = TempDir()
        let store = try Self.populated(dir)
        let ctx = try ManagedObjectContext(store: store)
        // Descending: each row's manager comes later in the result.
        let people = try ctx.fetch("Person", sortedBy: [QuerySortDescriptor("age", ascending: false)])
        #expect(people.count == Self.count)
        #expect(Set(people.map(ObjectIdentifier.init)).count == Self.count)
        for (i, p) in people.enumerated() where i + 1 < people.count {
            #expect(try p.toOne("manager") === people[i + 1])
        }
        let first = people.last!
        #expect(try first.toOne("manager") === first)
        #expect(try ctx.object(with: first.objectID) === first)
    }
}
