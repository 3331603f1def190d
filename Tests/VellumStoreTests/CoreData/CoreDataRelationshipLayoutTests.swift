import Foundation
import Testing
@testable import VellumStore

/// What the fixtures lack, on a small store built with Core Data's layout (facts document):
/// a many-to-many join table `Z_<n><REL>` with key columns `Z_<n><INVERSE>`/`Z_<m><REL>`, and an
/// ordered one-to-many kept by the destination's `Z_FOK_<INVERSE>` column. Read and written
/// through `CoreDataLayout`, checked with `sqlite3`.
@Suite struct CoreDataRelationshipLayoutTests {
    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Bookmark") {
                $0.attribute("title", .string)
                $0.toOne("folder", "Folder", inverse: "bookmarks")
            }
            .entity("Folder") {
                $0.attribute("name", .string)
                $0.toMany("bookmarks", "Bookmark", inverse: "folder", ordered: true)
            }
            .entity("Post") {
                $0.attribute("title", .string)
                $0.toMany("tags", "Tag", inverse: "posts")
            }
            .entity("Tag") {
                $0.attribute("name", .string)
                $0.toMany("posts", "Post", inverse: "tags")
            }
            .build()
    }

    /// Entities 1 Bookmark, 2 Folder, 3 Post, 4 Tag; a folder with two bookmarks in
    /// reverse key order, a post with one tag.
    static let schema = """
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Bookmark', 0, 2), (2, 'Folder', 0, 1), (3, 'Post', 0, 1), (4, 'Tag', 0, 2);
        CREATE TABLE ZBOOKMARK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, Z_FOK_FOLDER INTEGER, ZTITLE VARCHAR);
        CREATE TABLE ZFOLDER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE ZPOST (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
        CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
        CREATE TABLE Z_3TAGS (Z_3POSTS INTEGER, Z_4TAGS INTEGER, PRIMARY KEY (Z_3POSTS, Z_4TAGS));
        CREATE INDEX Z_3TAGS_Z_4TAGS_INDEX ON Z_3TAGS (Z_4TAGS, Z_3POSTS);
        INSERT INTO ZFOLDER VALUES (1, 2, 1, 'Reading');
        INSERT INTO ZBOOKMARK VALUES (1, 1, 1, 1, 2, 'second'), (2, 1, 1, 1, 1, 'first');
        INSERT INTO ZPOST VALUES (1, 3, 1, 'Hello');
        INSERT INTO ZTAG VALUES (1, 4, 1, 'swift'), (2, 4, 1, 'linux');
        INSERT INTO Z_3TAGS VALUES (1, 1);
        """

    static func open(_ path: String) throws -> PersistentStore { try open(path, model: model()) }

    /// A store over a file built with Core Data's layout, opened with `model` through
    /// `CoreDataLayout` (writable: these files have no metadata to check a model against).
    static func open(_ path: String, model: ManagedObjectModel) throws -> PersistentStore {
        let writer = try Connection(path: path, options: .init(journalModeWAL: false))
        let layout = try CoreDataLayout(model: model, schema: ForeignSchema.read(writer))
        return PersistentStore(path: path, options: StoreOptions(createIfMissing: false), access: .readWrite, writer: writer,
                               model: model, layout: layout, identifier: "TEST", writeRefusal: nil)
    }

    @Test func manyToManyAndOrderedRelationshipsReadAndWriteCoreDatasTables() throws {
        let dir = TempDir()
        let path = dir.path("z.sqlite")
        #expect(try sqliteShell(path, Self.schema) == 0)
        let store = try Self.open(path)
        let layout = try #require(store.layout as? CoreDataLayout)
        #expect(layout.joinTables.map(\.table) == ["Z_3TAGS"])
        let c = try ManagedObjectContext(store: store)
        let folder = try #require(try c.fetch("Folder").first)
        #expect(try folder.toMany("bookmarks").map { try $0["title"] } == [.string("first"), .string("second")])
        let post = try #require(try c.fetch("Post").first)
        #expect(try post.toMany("tags").map { try $0["name"] } == [.string("swift")])
        #expect(try c.count(FetchRequest(entityName: "Tag", predicate: QueryPredicate(format: "ANY posts.title == 'Hello'"))) == 1)

        // Many-to-many from either side, and a new bookmark put first in the ordered list.
        let linux = try #require(try c.fetch("Tag", where: QueryPredicate(format: "name == 'linux'")).first)
        try linux.setToMany("posts", [post])
        let newest = try c.insert("Bookmark", values: ["title": .string("zeroth")])
        try folder.setToMany("bookmarks", [newest] + (try folder.toMany("bookmarks")))
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT Z_3POSTS || '|' || Z_4TAGS FROM Z_3TAGS ORDER BY Z_4TAGS") == ["1|1", "1|2"])
        #expect(try sqliteShellOutput(path, "SELECT ZTITLE FROM ZBOOKMARK WHERE ZFOLDER = 1 ORDER BY Z_FOK_FOLDER") == ["zeroth", "first", "second"])
        #expect(try sqliteShellOutput(path, "SELECT Z_PK || '|' || Z_ENT || '|' || Z_OPT FROM ZBOOKMARK WHERE ZTITLE = 'zeroth'") == ["3|1|1"])
        #expect(try sqliteShellOutput(path, "SELECT Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") == ["3", "1", "1", "2"])
        // A changed relationship set is a saved update of its object (Z_OPT + 1), as in Core Data.
        #expect(try sqliteShellOutput(path, "SELECT 'folder' || Z_OPT FROM ZFOLDER UNION ALL SELECT 'post' || Z_OPT FROM ZPOST UNION ALL SELECT 'tag' || Z_PK || '=' || Z_OPT FROM ZTAG ORDER BY 1")
                == ["folder2", "post2", "tag1=1", "tag2=2"])
        #expect(try sqliteShellOutput(path, "PRAGMA integrity_check") == ["ok"])

        let again = try ManagedObjectContext(store: try Self.open(path))
        let reread = try #require(try again.fetch("Folder").first)
        #expect(try reread.toMany("bookmarks").map { try $0["title"] } == [.string("zeroth"), .string("first"), .string("second")])
        #expect(try again.count(FetchRequest(entityName: "Post", predicate: QueryPredicate(format: "tags.@count == 2"))) == 1)
    }
}
