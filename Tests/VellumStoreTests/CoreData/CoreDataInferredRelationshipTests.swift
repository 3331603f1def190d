import Foundation
import Testing
@testable import VellumStore

/// Relationships of models inferred from the schema (no `Z_MODELCACHE`): to-one from indexed
/// integer `Z<NAME>` columns, many-to-many from join tables `Z_<n><REL>`. On copies only.
@Suite struct CoreDataInferredRelationshipTests {
    /// SampleModel-v1 without its cache: `ZCAR.ZOWNER` (indexed, its keys all in `ZPERSON`) is
    /// `Car.owner`, and Person gets the inverse `cars`; the store opens read-only (a guess) and
    /// the relationship is followed both ways.
    @Test func toOneFromAnIndexedIntegerColumn() throws {
        let copy = try CoreDataFixtureCopy("SampleModel-v1.sqlite")
        defer { #expect(copy.originalUnchanged()) }
        #expect(try sqliteShell(copy.url.path, "DROP TABLE Z_MODELCACHE;") == 0)
        let recovered = try CoreDataStoreFile(path: copy.url.path).recoverModel()
        guard case .inferred(let notes) = recovered.source else { Issue.record("source \(recovered.source)"); return }
        let car = try #require(recovered.model.entity(named: "Car"))
        let owner = try #require(car.relationship(named: "owner"))
        #expect(owner.destination == "Person" && !owner.isToMany && owner.inverse == "cars")
        #expect(!car.attributes.contains { $0.name == "owner" })
        let cars = try #require(recovered.model.entity(named: "Person")?.relationship(named: "cars"))
        #expect(cars.isToMany && cars.destination == "Car" && cars.inverse == "owner")
        #expect(notes.contains { $0.contains("Car.owner: to-one to Person from column ZOWNER") && $0.contains("named by Vellum") })

        let store = try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
        #expect(store.writeRefusal != nil)
        let c = try ManagedObjectContext(store: store)
        let expected = try sqliteShellOutput(copy.url.path, "SELECT count(*) FROM ZCAR WHERE ZOWNER = 2")
        let person = try #require(try c.fetch("Person").first { $0.objectID.primaryKey == 2 })
        #expect(["\(try person.toMany("cars").count)"] == expected)
        let aCar = try #require(try person.toMany("cars").first)
        #expect(try aCar.toOne("owner") === person)
    }

    /// A join table `Z_3TAGS` (columns `Z_3POSTS`, `Z_4TAGS`) is Post.tags ↔ Tag.posts; an indexed
    /// `ZFOLDER` named like an entity is Bookmark.folder.
    @Test func manyToManyFromAJoinTable() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        let schema = CoreDataRelationshipLayoutTests.schema + """
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            CREATE INDEX ZBOOKMARK_ZFOLDER_INDEX ON ZBOOKMARK (ZFOLDER);
            """
        #expect(try sqliteShell(path, schema) == 0)
        let (model, notes) = try CoreDataSchemaInference.infer(CoreDataStoreFile(path: path), storedHashes: [:])
        let tags = try #require(model.model.entity(named: "Post")?.relationship(named: "tags"))
        #expect(tags.isToMany && tags.destination == "Tag" && tags.inverse == "posts")
        let posts = try #require(model.model.entity(named: "Tag")?.relationship(named: "posts"))
        #expect(posts.isToMany && posts.destination == "Post" && posts.inverse == "tags")
        let folder = try #require(model.model.entity(named: "Bookmark")?.relationship(named: "folder"))
        #expect(folder.destination == "Folder" && folder.inverse == "bookmarks")
        #expect(notes.contains { $0.contains("many-to-many from join table Z_3TAGS") })

        // The inferred model fits Core Data's layout: the join table is read through it.
        let store = try CoreDataRelationshipLayoutTests.open(path, model: model.model)
        #expect((store.layout as? CoreDataLayout)?.joinTables.map(\.table) == ["Z_3TAGS"])
        let c = try ManagedObjectContext(store: store)
        let post = try #require(try c.fetch("Post").first)
        #expect(try post.toMany("tags").map { try $0["name"] } == [.string("swift")])
        let bookmarks = try #require(try c.fetch("Folder").first).toMany("bookmarks")
        #expect(bookmarks.count == 2)
    }
}
