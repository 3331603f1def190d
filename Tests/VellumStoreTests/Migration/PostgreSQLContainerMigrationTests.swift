import Foundation
import Testing
@testable import VellumStore

/// Issue #18: a `PersistentContainer` opening a PostgreSQL store of another model migrates
/// it as it does a file (`MigrationPolicy`): automatically by default, in one server
/// transaction with the old schema kept as the backup; `.never` fails with the plan and a
/// plan that cannot run is refused, the schema unchanged either way; a store object opened
/// before the migration stops writing with `storeModelChanged`.
@Suite struct PostgreSQLContainerMigrationTests {
    typealias Fixture = PostgreSQLMigrationTests

    static func storeURL(_ url: PostgreSQLURL) throws -> URL { try #require(URL(string: url.text)) }

    /// What the schema holds: the people, the model hash and the schemas beside it.
    static func state(_ url: PostgreSQLURL) throws -> [String] {
        try Fixture.psql(url, #"SELECT "_pk"::text, "name", "age"::text FROM zoo."Person" ORDER BY 1"#)
            + Fixture.psql(url, "SELECT value FROM zoo._vellum_metadata WHERE key = 'modelHash'")
            + Fixture.psql(url, "SELECT nspname::text FROM pg_namespace WHERE nspname LIKE 'zoo%' OR nspname LIKE '\\_vellum%' ORDER BY 1")
    }

    @Test func aContainerMigratesAServerStoreAutomatically() throws {
        let url = try Fixture.filledStore()
        let v1 = try Fixture.v1(), v2 = try Fixture.v2()
        let container = try PersistentContainer(model: v2, storeURL: try Self.storeURL(url))
        #expect(container.model.versionHash == v2.versionHash)
        #expect(try Fixture.psql(url, "SELECT value FROM zoo._vellum_metadata WHERE key = 'modelHash'") == [v2.versionHash])
        #expect(try Fixture.psql(url, "SELECT nspname::text FROM pg_namespace WHERE nspname = 'zoo_before_\(v1.versionHash.prefix(12))'").count == 1,
                "the old schema is kept as the backup")

        let c = try ManagedObjectContext(store: container.store)
        let people = try c.fetch("Person", sortedBy: [QuerySortDescriptor("fullName")])
        #expect(try people.map { try $0.value(forKey: "fullName") } == [.string("Ada"), .string("Alan")])
        #expect(try people.map { try $0.value(forKey: "score") } == [.integer(7), .integer(7)])
        #expect(try people.map { try $0.toMany("pets").count } == [2, 1])

        // The container writes the new shape; keys continue past the old ones.
        let key = try blockingEnqueue(container) { context in
            let carl = try context.insert("Person", values: ["fullName": .string("Carl"), "score": .integer(1)])
            try context.save()
            return MigrationTestStore.key(carl.objectID)
        }
        #expect(key == 3)
        #expect(try Fixture.psql(url, #"SELECT "fullName" FROM zoo."Person" ORDER BY "_pk""#) == ["Ada", "Alan", "Carl"])

        // Opening it again with the new model migrates nothing more.
        let again = try PersistentContainer(model: v2, storeURL: try Self.storeURL(url))
        #expect(again.model.versionHash == v2.versionHash)
        #expect(try Fixture.psql(url, "SELECT count(*)::text FROM pg_namespace WHERE nspname LIKE 'zoo\\_before%'") == ["1"])
    }

    @Test func withMigrationNeverTheContainerFailsWithThePlanAndNothingChanges() throws {
        let url = try Fixture.filledStore()
        let before = try Self.state(url)
        #expect { try PersistentContainer(model: try Fixture.v2(), storeURL: try Self.storeURL(url), migration: .never) } throws: { e in
            guard case StoreError.migrationRequired(let path, let plan) = e else { return false }
            return path == url.description && plan.contains("attribute name renamed to fullName") && "\(e)".contains("automatic migration is off")
        }
        #expect(try Self.state(url) == before)
        // `.off`, and a store opened alone, keep `modelMismatch`.
        #expect { try PersistentContainer(model: try Fixture.v2(), storeURL: try Self.storeURL(url), migration: .off) } throws: { e in
            if case StoreError.modelMismatch = e { return true } else { return false }
        }
        #expect { try PersistentStore(postgreSQL: url, model: try Fixture.v2()) } throws: { e in
            if case StoreError.modelMismatch = e { return true } else { return false }
        }
        #expect(try Self.state(url) == before)
    }

    @Test func aMigrationThatCannotBeInferredIsRefusedAndNothingChanges() throws {
        let url = try Fixture.filledStore()
        let before = try Self.state(url)
        var v3 = try Fixture.v1().entityDescriptions
        v3[0].attributes.append(AttributeDescription(name: "email", type: .string, isOptional: false))
        let model = try ManagedObjectModel(entities: v3)
        let text = refusal { _ = try PersistentContainer(model: model, storeURL: try Self.storeURL(url)) }
        #expect(text?.contains("Person: email is new, required and has no default: 2 rows do not comply (keys 1, 2)") == true, "\(text ?? "no refusal")")
        #expect(try Self.state(url) == before)
    }

    /// A container of the old model, open while another migrates the store, refuses its next
    /// write with a clear error instead of writing rows of the old shape.
    @Test func aContainerOpenDuringTheMigrationStopsWriting() throws {
        let url = try Fixture.filledStore()
        let old = try PersistentContainer(model: try Fixture.v1(), storeURL: try Self.storeURL(url))
        try blockingEnqueue(old) { context in
            _ = try context.insert("Person", values: ["name": .string("Before")])
            try context.save()
        }
        let new = try PersistentContainer(model: try Fixture.v2(), storeURL: try Self.storeURL(url))
        #expect(new.model.versionHash == (try Fixture.v2()).versionHash)
        do {
            try blockingEnqueue(old) { context in
                _ = try context.insert("Person", values: ["name": .string("After")])
                try context.save()
            }
        } catch StoreError.storeModelChanged(let path) {
            #expect(path == url.description)
        } catch {
            Issue.record("expected storeModelChanged, got \(error)")
        }
        #expect(try Fixture.psql(url, #"SELECT "fullName" FROM zoo."Person" ORDER BY "_pk""#) == ["Ada", "Alan", "Before"])
        // The migrated store takes writes from the container of the new model.
        try blockingEnqueue(new) { context in
            _ = try context.insert("Person", values: ["fullName": .string("After"), "score": .integer(2)])
            try context.save()
        }
        #expect(try Fixture.psql(url, #"SELECT "fullName" FROM zoo."Person" ORDER BY "_pk""#) == ["Ada", "Alan", "Before", "After"])
    }
}

/// Runs a write-queue block and waits for it (the tests above are synchronous).
@discardableResult
func blockingEnqueue<T: Sendable>(_ container: PersistentContainer, _ block: @escaping @Sendable (ManagedObjectContext) throws -> T) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let result = Locked<Result<T, Error>?>(nil)
    container.enqueue(block) { outcome in
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}
