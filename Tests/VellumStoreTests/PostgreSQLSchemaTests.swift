import Foundation
import Testing
@testable import VellumStore

/// Vellum's native layout as a PostgreSQL schema, created in the throwaway cluster
/// and read back from the catalogs.
@Suite struct PostgreSQLSchemaTests {
    /// Every attribute type, inheritance with a sub-entity's unique constraint, a
    /// to-one, an ordered one-to-many, a many-to-many and a declared index.
    static func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Kinds") {
                $0.attribute("s", .string); $0.attribute("i16", .integer16); $0.attribute("i32", .integer32)
                $0.attribute("i64", .integer64, indexed: true); $0.attribute("d", .double); $0.attribute("f", .float)
                $0.attribute("dec", .decimal); $0.attribute("b", .boolean); $0.attribute("at", .date); $0.attribute("bin", .binary)
                $0.attribute("id", .uuid); $0.attribute("link", .uri); $0.attribute("json", .transformable)
                $0.attribute("scratch", .string, transient: true)
                $0.unique("s")
                $0.index("by_d_f", "d", "f")
                $0.toOne("owner", "Owner", inverse: "kinds")
                $0.toMany("tags", "Tag", inverse: "kinds")
            }
            .entity("Owner") {
                $0.attribute("name", .string)
                $0.toMany("kinds", "Kinds", inverse: "owner", ordered: true)
            }
            .entity("Tag") {
                $0.attribute("name", .string)
                $0.toMany("kinds", "Kinds", inverse: "tags")
            }
            .entity("Special", parent: "Tag") {
                $0.attribute("code", .string)
                $0.unique("code")
            }
            .build()
    }

    @Test func theNativeLayoutBecomesTypedTablesWithConstraints() throws {
        let model = try Self.model()
        let url = try PostgreSQLCluster.shared().makeSchema("shop")
        let db = try PGConnection(url: url)
        let layout = PostgreSQLLayout(model: model)
        try PostgreSQLSchema.createStore(on: db, layout: layout)

        let types = try db.rows("""
            SELECT column_name, data_type, is_identity, collation_name FROM information_schema.columns
            WHERE table_schema = 'shop' AND table_name = 'Kinds' ORDER BY ordinal_position
            """).map { ($0[0].stringValue!, $0[1].stringValue!, $0[2].stringValue!, $0[3].stringValue) }
        let byName = Dictionary(uniqueKeysWithValues: types.map { ($0.0, $0) })
        let expected: [String: String] = [
            "s": "text", "i16": "smallint", "i32": "integer", "i64": "bigint", "d": "double precision", "f": "real",
            "dec": "numeric", "b": "boolean", "at": "timestamp with time zone", "bin": "bytea", "id": "uuid", "link": "text",
            "json": "jsonb", layout.primaryKeyColumn: "bigint", layout.entityColumn: "text", layout.versionColumn: "bigint", "owner": "bigint",
        ]
        for (column, type) in expected { #expect(byName[column]?.1 == type, "\(column)") }
        #expect(byName["scratch"] == nil, "transient attributes are not stored")
        #expect(byName[layout.primaryKeyColumn]?.2 == "YES", "the key is an identity column")
        #expect(byName["s"]?.3 == "C" && byName["link"]?.3 == "C", "text orders by bytes")

        let constraints = Set(try db.rows("""
            SELECT conrelid::regclass::text, contype::text, condeferrable FROM pg_constraint
            WHERE connamespace = 'shop'::regnamespace
            """).map { "\($0[0].stringValue!) \($0[1].stringValue!) \($0[2] == .bool(true))" })
        #expect(constraints.isSuperset(of: ["\"Kinds\" p false", "\"Kinds\" u false", "\"Kinds\" f true", "\"Kinds_tags\" p false", "\"Kinds_tags\" f true",
                                            "\"Owner\" p false", "\"Tag\" p false"]), "\(constraints)")
        let indexes = Set(try db.rows("SELECT indexname FROM pg_indexes WHERE schemaname = 'shop'").compactMap { $0[0].stringValue })
        #expect(indexes.isSuperset(of: ["Kinds_i64", "Kinds_by_d_f", "Kinds_owner", "Special_unique_0_code", "Kinds_tags_target"]), "\(indexes)")
        let ownerPosition = try db.scalar("SELECT count(*) FROM information_schema.columns WHERE table_schema = 'shop' AND table_name = 'Kinds' AND column_name LIKE '%position'")
        #expect(ownerPosition == .integer(1), "the ordered one-to-many's position lives on the destination table")

        let meta = try PostgreSQLSchema.metadata(db)
        #expect(meta["modelHash"] == model.versionHash && meta["format"] == PersistentStore.formatVersion)
        #expect(try ManagedObjectModel(jsonData: Data(meta["model"]!.utf8)).versionHash == model.versionHash)
    }

    @Test func theConstraintsHoldInTheServer() throws {
        let model = try Self.model()
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema("s"))
        let layout = PostgreSQLLayout(model: model)
        try PostgreSQLSchema.createStore(on: db, layout: layout)
        let key = layout.dialect.quote(layout.primaryKeyColumn), entity = layout.dialect.quote(layout.entityColumn)
        let insertKinds = "INSERT INTO \"Kinds\" (\(entity), s) VALUES ('Kinds', $1)" + " RETURNING \(key)"
        let first = try db.scalar(insertKinds, [.string("x")])
        let second = try db.scalar(insertKinds, [.string("y")])
        #expect(first == .integer(1) && second == .integer(2), "keys come from the identity")
        #expect(throws: StoreError.self) { try db.query(insertKinds, [.string("x")]) }
        // Unique among Special rows only; a plain Tag may share the code column's value.
        let tag = "INSERT INTO \"Tag\" (\(entity), code) VALUES ($1, $2)"
        try db.query(tag, [.string("Special"), .string("c1")])
        try db.query(tag, [.string("Tag"), .string("c1")])
        #expect { try db.query(tag, [.string("Special"), .string("c1")]) } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "23505"
        }
        // Foreign keys are checked at commit (deferred), and a dangling one is refused.
        try db.execute("BEGIN")
        try db.query("UPDATE \"Kinds\" SET owner = 99 WHERE \(key) = 1")
        #expect { try db.execute("COMMIT") } throws: { error in
            guard case StoreError.postgresql(let f) = error else { return false }
            return f.sqlState == "23503"
        }
        // A key the identity handed out is never handed out again: not 3, which the refused
        // duplicate took, nor 2 after its row is gone.
        try db.query("DELETE FROM \"Kinds\" WHERE \(key) = 2")
        let largest = try db.scalar(layout.largestKeyEverSQL(table: "Kinds"), [.string("Kinds")])
        #expect(largest == .integer(3), "\(String(describing: largest))")
        #expect(try db.scalar(layout.largestKeyEverSQL(table: "Owner"), [.string("Owner")]) == .integer(0))
    }

    @Test func aSchemaHoldingAStoreIsRefusedAndLeftAlone() throws {
        let model = try Self.model()
        let db = try PGConnection(url: try PostgreSQLCluster.shared().makeSchema("twice"))
        try PostgreSQLSchema.createStore(on: db, layout: PostgreSQLLayout(model: model), uuid: "first")
        #expect { try PostgreSQLSchema.createStore(on: db, layout: PostgreSQLLayout(model: model), uuid: "second") } throws: { error in
            guard case StoreError.fileExists = error else { return false }
            return "\(error)".contains("already exists")
        }
        #expect(try PostgreSQLSchema.metadata(db)["uuid"] == "first")
        // Metadata, three entity tables, one join table, and the two history tables.
        #expect(try db.scalar("SELECT count(*) FROM pg_tables WHERE schemaname = 'twice'") == .integer(7))
    }

    @Test func longNamesAreShortenedWithoutCollisions() {
        let schema = PostgreSQLSchema(layout: PostgreSQLLayout(model: QueryFixtures.model))
        let a = schema.name63(String(repeating: "é", count: 40) + "_a"), b = schema.name63(String(repeating: "é", count: 40) + "_b")
        #expect(a != b && a.utf8.count <= 63 && b.utf8.count <= 63)
        #expect(schema.name63("short") == "short")
    }
}
