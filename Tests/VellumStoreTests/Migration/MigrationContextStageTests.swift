import Foundation
import Testing
@testable import VellumStore

/// Custom stages on a `ManagedObjectContext` over the migration's own connection:
/// fetches see the migration's uncommitted tables, saves are savepoints of its one
/// transaction, and a stage that throws leaves the file byte for byte as it was.
@Suite struct MigrationContextStageTests {
    static func v1() throws -> ManagedObjectModel {
        try ModelBuilder().entity("Person") {
            $0.attribute("first", .string)
            $0.attribute("last", .string)
            $0.attribute("born", .string)
        }.build()
    }

    /// `fullName` is new (filled from `first` and `last`), `born` (text) is dropped and its year kept as `year`.
    static func v2() throws -> ManagedObjectModel {
        try ModelBuilder().entity("Person") {
            $0.attribute("first", .string)
            $0.attribute("last", .string)
            $0.attribute("fullName", .string, optional: false, default: .string(""))
            $0.attribute("year", .integer64)
        }.build()
    }

    static func fill(_ ctx: ManagedObjectContext) throws {
        _ = try ctx.insert("Person", values: ["first": .string("Ada"), "last": .string("Lovelace"), "born": .string("1815-12-10")])
        _ = try ctx.insert("Person", values: ["first": .string("Alan"), "last": .string("Turing"), "born": .string("1912-06-23")])
        _ = try ctx.insert("Person", values: ["first": .string("Grace"), "born": .string("1906-12-09")])
    }

    /// Years read before the schema step (from `born`, which the new model drops), by object ID.
    final class Years: @unchecked Sendable {
        // Unchecked: written by `before` and read by `after`, one after the other on the migrating thread.
        var byID: [ObjectID: Int64] = [:]
    }

    /// The docs' example: a new attribute filled from old ones, on managed objects.
    static func fullNames(after extra: @escaping @Sendable (ManagedObjectContext) throws -> Void = { _ in }) -> MigrationStage {
        let years = Years()
        return .withContext("names and years", before: { context in
            for person in try context.fetch("Person") {
                if let text = try person.value(forKey: "born").stringValue, let year = Int64(text.prefix(4)) { years.byID[person.objectID] = year }
            }
        }, after: { context in
            for person in try context.fetch("Person") {
                let parts = [try person.value(forKey: "first").stringValue, try person.value(forKey: "last").stringValue]
                try person.setValue(.string(parts.compactMap { $0 }.joined(separator: " ")), forKey: "fullName")
                try person.setValue(years.byID[person.objectID].map(Value.integer) ?? .null, forKey: "year")
            }
            try extra(context)
        })
    }

    @Test func aContextStageFillsANewAttributeFromOldOnes() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        var options = MigrationOptions(backup: false)
        options.stages = [Self.fullNames()]
        try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options)
        let rows = try store.rows("Person", model: try Self.v2())
        #expect(rows[1]?["fullName"] == .string("Ada Lovelace"))
        #expect(rows[2]?["fullName"] == .string("Alan Turing"))
        #expect(rows[3]?["fullName"] == .string("Grace"))
        #expect(rows.mapValues { $0["year"] } == [1: .integer(1815), 2: .integer(1912), 3: .integer(1906)])
        #expect(try sqliteScalar(store.path, "SELECT value FROM _vellum_metadata WHERE key = 'modelHash'") == (try Self.v2()).versionHash)
    }

    /// The after-stage's context sees the new tables of the open transaction and can insert;
    /// the inserted object's key continues past the migrated rows'.
    @Test func aContextStageInsertsInsideTheMigration() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        var options = MigrationOptions(backup: false)
        options.stages = [Self.fullNames(after: { context in
            #expect(try context.count(FetchRequest(entityName: "Person")) == 3)
            _ = try context.insert("Person", values: ["first": .string("Edsger"), "fullName": .string("Edsger Dijkstra"), "year": .integer(1930)])
        })]
        try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options)
        let rows = try store.rows("Person", model: try Self.v2())
        #expect(rows.count == 4)
        #expect(rows[4]?["fullName"] == .string("Edsger Dijkstra"))
        #expect(rows[4]?["year"] == .integer(1930))
    }

    /// A stage that saved and then throws: nothing of the migration stays, the file is byte-identical.
    @Test func aThrowingContextStageLeavesTheFileByteIdentical() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        let before = try store.bytes()
        var options = MigrationOptions(backup: false)
        options.stages = [Self.fullNames(after: { context in
            _ = try context.save()
            throw StoreError.invalidOperation("stop")
        })]
        #expect { try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options) } throws: { e in
            "\(e)".contains("migration stage names and years: stop; nothing was changed")
        }
        #expect(try store.bytes() == before)
        #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
        let rows = try store.rows("Person", model: try Self.v1())
        #expect(rows[1]?["born"] == .string("1815-12-10"))
    }

    /// A stage's save is validated like any save: a required attribute left empty fails the migration.
    @Test func aContextStageSaveIsValidated() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        let before = try store.bytes()
        var options = MigrationOptions(backup: false)
        options.stages = [.withContext("blank names", after: { context in
            for person in try context.fetch("Person") { try person.setValue(.null, forKey: "fullName") }
        })]
        #expect { try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options) } throws: { e in
            "\(e)".contains("migration stage blank names") && "\(e)".contains("fullName")
        }
        #expect(try store.bytes() == before)
    }
}
