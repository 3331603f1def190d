import Foundation
import Testing
@testable import VellumStore

/// Migration of stores in a PostgreSQL schema of the throwaway cluster: the same plan
/// as for a file, run in one transaction (a staging schema swapped in), the old schema
/// kept as the backup; refused plans change nothing.
@Suite struct PostgreSQLMigrationTests {
    static func v1() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") {
                $0.attribute("name", .string)
                $0.attribute("age", .integer16)
                $0.attribute("note", .string)
                $0.attribute("member", .boolean)
                $0.toMany("pets", "Pet", inverse: "owner")
            }
            .entity("Pet") {
                $0.attribute("name", .string)
                $0.toOne("owner", "Person", inverse: "pets")
            }
            .build()
    }

    /// `name` renamed, `age` widened, `member` boolean → integer, `note` removed, `score` added (required, default).
    static func v2() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Person") {
                $0.attribute("fullName", .string, renamedFrom: "name")
                $0.attribute("age", .integer64)
                $0.attribute("member", .integer32)
                $0.attribute("score", .integer64, optional: false, default: .integer(7))
                $0.toMany("pets", "Pet", inverse: "owner")
            }
            .entity("Pet") {
                $0.attribute("name", .string)
                $0.toOne("owner", "Person", inverse: "pets")
            }
            .build()
    }

    /// A store of `v1` in a new schema, with two people and three pets.
    static func filledStore() throws -> PostgreSQLURL {
        let url = try PostgreSQLURL(try PostgreSQLCluster.shared().makeSchema("zoo"))
        let store = try PersistentStore(postgreSQL: url, model: try v1())
        let c = try ManagedObjectContext(store: store)
        let ada = try c.insert("Person", values: ["name": .string("Ada"), "age": .integer(36), "note": .string("n"), "member": .bool(true)])
        let alan = try c.insert("Person", values: ["name": .string("Alan"), "age": .integer(41), "member": .bool(false)])
        for (name, owner) in [("Rex", ada), ("Tom", ada), ("Kit", alan)] {
            let pet = try c.insert("Pet", values: ["name": .string(name)])
            try pet.setToOne("owner", owner)
        }
        _ = try c.save()
        return url
    }

    static func psql(_ url: PostgreSQLURL, _ sql: String) throws -> [String] {
        try PGConnection(url: url).rows(sql, format: .text).map { row in row.map { $0.stringValue ?? "" }.joined(separator: "|") }
    }

    @Test func aServerStoreMigratesAndKeepsTheOldSchemaAsBackup() throws {
        let url = try Self.filledStore()
        let result = try StoreMigrator.migrate(postgreSQL: url, to: try Self.v2())
        #expect(result.migrated)
        let backup = try #require(result.backupPath)
        #expect(backup == "zoo_before_" + (try Self.v1()).versionHash.prefix(12))

        let store = try PersistentStore(postgreSQL: url, model: try Self.v2())
        let c = try ManagedObjectContext(store: store)
        let people = try c.fetch("Person", sortedBy: [QuerySortDescriptor("fullName")])
        #expect(try people.map { try $0.value(forKey: "fullName") } == [.string("Ada"), .string("Alan")])
        #expect(try people.map { try $0.value(forKey: "age") } == [.integer(36), .integer(41)])
        #expect(try people.map { try $0.value(forKey: "member") } == [.integer(1), .integer(0)])
        #expect(try people.map { try $0.value(forKey: "score") } == [.integer(7), .integer(7)])
        #expect(try people.map { try $0.toMany("pets").count } == [2, 1])
        #expect(try Self.psql(url, #"SELECT data_type FROM information_schema.columns WHERE table_schema = 'zoo' AND table_name = 'Person' AND column_name = 'age'"#) == ["bigint"])
        #expect(try Self.psql(url, "SELECT count(*)::text FROM information_schema.columns WHERE table_schema = 'zoo' AND column_name = 'note'") == ["0"])
        #expect(try Self.psql(url, "SELECT value FROM zoo._vellum_metadata WHERE key = 'migratedFrom'") == [(try Self.v1()).versionHash])

        // Keys continue past the old ones; the store takes writes of the new shape.
        let carl = try c.insert("Person", values: ["fullName": .string("Carl")])
        _ = try c.save()
        #expect(MigrationTestStore.key(carl.objectID) == 3)

        // The backup schema holds the old store as it was.
        #expect(try Self.psql(url, #"SELECT "name", "note" FROM "\#(backup)"."Person" ORDER BY "_pk""#) == ["Ada|n", "Alan|"])
        #expect(try Self.psql(url, #"SELECT value FROM "\#(backup)"._vellum_metadata WHERE key = 'modelHash'"#) == [(try Self.v1()).versionHash])
    }

    /// Regression (found merging PostgreSQL history with PostgreSQL migration): the
    /// history tables were taken for objects Vellum did not make, so every store with
    /// history was refused; and the new schema must keep recording other writers.
    @Test func historyCarriesOverAndOtherWritersAreRecordedAfterTheMigration() throws {
        let url = try Self.filledStore()
        let before = try PersistentStore(postgreSQL: url, model: try Self.v1())
        let token = try before.currentHistoryToken()
        let earlier = try before.history(after: .start).count
        #expect(earlier >= 1, "the filled store's save is in its history")

        try StoreMigrator.migrate(postgreSQL: url, to: try Self.v2(), options: MigrationOptions(backup: false))
        let store = try PersistentStore(postgreSQL: url, model: try Self.v2())
        #expect(try store.history(after: .start).count >= earlier, "the older history is kept")
        _ = try Self.psql(url, #"UPDATE zoo."Person" SET "fullName" = 'Ada L.' WHERE "fullName" = 'Ada'"#)
        let after = try store.history(after: token)
        let changes = after.flatMap(\.changes)
        #expect(changes.contains { $0.objectID.entityName == "Person" && $0.kind == .update }, "\(after)")
    }

    @Test func withoutBackupTheOldSchemaIsGone() throws {
        let url = try Self.filledStore()
        let result = try StoreMigrator.migrate(postgreSQL: url, to: try Self.v2(), options: MigrationOptions(backup: false))
        #expect(result.backupPath == nil)
        #expect(try Self.psql(url, "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'zoo%' OR nspname LIKE '\\_vellum%' ORDER BY 1") == ["zoo"])
        #expect(try Self.psql(url, #"SELECT count(*)::text FROM zoo."Pet""#) == ["3"])
    }

    /// The same refusal as for a file, and the schema is as it was.
    @Test func aRefusedPlanChangesNothingOnTheServer() throws {
        let url = try Self.filledStore()
        var v3 = try Self.v1().entityDescriptions
        v3[0].attributes.append(AttributeDescription(name: "email", type: .string, isOptional: false))
        let before = try Self.psql(url, #"SELECT "_pk", "name", "age", "note" FROM zoo."Person" ORDER BY 1"#)
        let text = refusal { try StoreMigrator.migrate(postgreSQL: url, to: try ManagedObjectModel(entities: v3)) }
        #expect(text?.contains("Person: email is new, required and has no default: 2 rows do not comply (keys 1, 2)") == true)
        #expect(try Self.psql(url, #"SELECT "_pk", "name", "age", "note" FROM zoo."Person" ORDER BY 1"#) == before)
        #expect(try Self.psql(url, "SELECT value FROM zoo._vellum_metadata WHERE key = 'modelHash'") == [(try Self.v1()).versionHash])
        #expect(try Self.psql(url, "SELECT count(*)::text FROM pg_namespace WHERE nspname LIKE '\\_vellum%' OR nspname LIKE 'zoo\\_before%'") == ["0"])
    }

    /// Narrowing is checked on the server as on a file (a value that does not fit is counted, not cast).
    @Test func aNarrowingCheckRunsOnTheServer() throws {
        let url = try Self.filledStore()
        var narrow = try Self.v1().entityDescriptions
        narrow[0].attributes[1] = AttributeDescription(name: "age", type: .boolean)
        let plan = try StoreMigrator.plan(postgreSQL: url, to: try ManagedObjectModel(entities: narrow))
        #expect(plan.blockers == ["Person: age values fit boolean: 2 rows do not comply (keys 1, 2)"])
    }

    /// A table the store did not make would not survive the schema swap: refused, nothing changed.
    @Test func aSchemaHoldingOtherTablesIsRefused() throws {
        let url = try Self.filledStore()
        try PGConnection(url: url).execute("CREATE TABLE zoo.audit (line text)")
        #expect { try StoreMigrator.migrate(postgreSQL: url, to: try Self.v2()) } throws: { e in
            "\(e)".contains("schema zoo also holds audit, which Vellum did not make")
        }
        #expect(try Self.psql(url, "SELECT value FROM zoo._vellum_metadata WHERE key = 'modelHash'") == [(try Self.v1()).versionHash])
        #expect(try Self.psql(url, "SELECT count(*)::text FROM pg_namespace WHERE nspname LIKE '\\_vellum%'") == ["0"])
    }

    /// A custom stage on a context runs inside the server transaction too.
    @Test func aContextStageRunsInTheServerTransaction() throws {
        let url = try Self.filledStore()
        var options = MigrationOptions(backup: false)
        options.stages = [.withContext("scores", after: { context in
            for person in try context.fetch("Person") {
                try person.setValue(.integer(Int64(try person.toMany("pets").count) * 10), forKey: "score")
            }
        })]
        try StoreMigrator.migrate(postgreSQL: url, to: try Self.v2(), options: options)
        #expect(try Self.psql(url, #"SELECT "fullName", "score"::text FROM zoo."Person" ORDER BY 1"#) == ["Ada|20", "Alan|10"])
    }
}
