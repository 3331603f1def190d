import Foundation
import Testing
@testable import VellumStore

/// Another program changing the schema of an open file is detected and
/// reported as an event naming what changed; indexes and triggers are not.
@MainActor
struct SchemaChangeTests {
    @Test(arguments: CoarseRefreshTests.Setup.allCases + [nil])
    func tablesAndColumnsAddedOrDroppedOutsideAreReported(_ setup: CoarseRefreshTests.Setup?) async throws {
        let dir = TempDir()
        let url = dir.file("schema.sqlite")
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: url,
                                                options: setup.map(CoarseRefreshTests.options) ?? StoreOptions())
        let seen = SchemaChanges()
        container.observeSchemaChanges { seen.append($0) }
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Tag", sortDescriptors: [QuerySortDescriptor("name")]), context: container.viewContext)
        try controller.performFetch()

        #expect(try sqliteShell(url.path, "ALTER TABLE Tag ADD COLUMN color TEXT") == 0)
        #expect(await waitUntil(timeout: 30) { seen.all.count == 1 })
        #expect(seen.all.last?.addedColumns == ["Tag": ["color"]])
        #expect(seen.all.last?.summary == "column Tag.color added")

        // An index is no table change; the table created in the same commit is.
        #expect(try sqliteShell(url.path, "BEGIN; CREATE INDEX tag_color ON Tag (color); CREATE TABLE \"Extra Table\" (x INTEGER PRIMARY KEY, y); COMMIT") == 0)
        #expect(await waitUntil(timeout: 30) { seen.all.count == 2 })
        #expect(seen.all.last?.addedTables == ["Extra Table"])
        #expect(seen.all.last?.summary == "table Extra Table added")

        #expect(try sqliteShell(url.path, "BEGIN; DROP TABLE \"Extra Table\"; DROP INDEX tag_color; ALTER TABLE Tag DROP COLUMN color; COMMIT") == 0)
        #expect(await waitUntil(timeout: 30) { seen.all.count == 3 })
        #expect(seen.all.last?.droppedTables == ["Extra Table"])
        #expect(seen.all.last?.droppedColumns == ["Tag": ["color"]])

        // Lists go on working on the changed file.
        #expect(try sqliteShell(url.path, "INSERT INTO Tag (_entity, _version, name) VALUES ('Tag', 1, 'after')") == 0)
        #expect(await waitUntil(timeout: 30) { controller.fetchedObjectCount == 1 })
        #expect(seen.all.count == 3)
    }

    /// A change committed after the file was opened (its model inferred) but before its
    /// changes are watched — the browser opening it again after a first change — is
    /// reported to the first observer. It used to be taken as the schema to compare with.
    @Test func aChangeBetweenOpeningAndWatchingIsReported() async throws {
        let dir = TempDir()
        let path = dir.path("other.sqlite")
        #expect(try runSQLite(path, "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)").status == 0)
        let store = try PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        #expect(try sqliteShell(path, "ALTER TABLE t ADD COLUMN color TEXT") == 0)
        let container = try PersistentContainer(store: store)
        let seen = SchemaChanges()
        container.observeSchemaChanges { seen.append($0) }
        #expect(await waitUntil(timeout: 10) { seen.all.count == 1 })
        #expect(seen.all.first?.summary == "column t.color added")

        // Opened after the change: nothing to report.
        let again = try PersistentContainer(store: PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false)))
        let none = SchemaChanges()
        again.observeSchemaChanges { none.append($0) }
        #expect(try sqliteShell(path, "CREATE TABLE u (x)") == 0)
        #expect(await waitUntil(timeout: 10) { none.all.count == 1 })
        #expect(none.all.map(\.summary) == ["table u added"])
    }

    @Test func theDifferenceOfTwoSchemasNamesEachChange() {
        func table(_ name: String, _ columns: [String], sql: String = "") -> TableInfo {
            TableInfo(name: name, type: "table", withoutRowid: false,
                      columns: columns.map { .init(name: $0, declaredType: "", primaryKeyPosition: 0) }, sql: sql)
        }
        let old = ["a": table("a", ["x", "y"]), "b": table("b", ["x"]), "c": table("c", ["x"], sql: "CREATE TABLE c (x)")]
        let new = ["a": table("a", ["x", "z"]), "c": table("c", ["x"], sql: "CREATE TABLE c (x NOT NULL)"), "d": table("d", [])]
        let change = SchemaChange.between(old, new)
        #expect(change?.summary == "table d added; table b dropped; column a.z added; column a.y dropped; table c redefined")
        #expect(SchemaChange.between(old, old) == nil)
    }
}

final class SchemaChanges: @unchecked Sendable {
    private let lock = NSLock()
    private var changes: [SchemaChange] = []
    func append(_ c: SchemaChange) { lock.withLock { changes.append(c) } }
    var all: [SchemaChange] { lock.withLock { changes } }
}
