import Foundation
import Testing
@testable import VellumStore

/// Custom stages: what inference refuses (a string parsed as a date, a value computed
/// from others) done by a stage in the migration's transaction.
@Suite struct MigrationStageTests {
    static func v1() throws -> ManagedObjectModel {
        try ModelBuilder().entity("Event") {
            $0.attribute("first", .string)
            $0.attribute("last", .string)
            $0.attribute("when", .string)
        }.build()
    }

    /// `when` becomes a date (not inferable: a parse), `fullName` is computed.
    static func v2() throws -> ManagedObjectModel {
        try ModelBuilder().entity("Event") {
            $0.attribute("first", .string)
            $0.attribute("last", .string)
            $0.attribute("fullName", .string, optional: false, default: .string(""))
            $0.attribute("at", .date)
        }.build()
    }

    static func fill(_ ctx: ManagedObjectContext) throws {
        _ = try ctx.insert("Event", values: ["first": .string("Ada"), "last": .string("Lovelace"), "when": .string("1843-09-05")])
        _ = try ctx.insert("Event", values: ["first": .string("Alan"), "last": .string("Turing"), "when": .string("1936-11-12")])
    }

    /// Collects values read before the schema step for the step after it.
    final class Carry: @unchecked Sendable {
        // Unchecked: written by `before` and read by `after`, one after the other on the migrating thread.
        var dates: [Int64: Date] = [:]
    }

    static func stage(_ carry: Carry, failing: Bool = false) -> MigrationStage {
        MigrationStage("dates and names", before: { ctx in
            let format = DateFormatter()
            format.dateFormat = "yyyy-MM-dd"
            format.timeZone = TimeZone(identifier: "UTC")
            for (key, values) in try ctx.rows("Event") {
                if let text = values["when"]?.stringValue, let date = format.date(from: text) { carry.dates[key] = date }
            }
        }, after: { ctx in
            for (key, values) in try ctx.rows("Event") {
                let full = [values["first"]?.stringValue, values["last"]?.stringValue].compactMap { $0 }.joined(separator: " ")
                try ctx.update("Event", key: key, ["fullName": .string(full), "at": carry.dates[key].map(Value.date) ?? .null])
            }
            if failing { throw StoreError.invalidOperation("stop") }
        })
    }

    @Test func stagesFillWhatInferenceCannot() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        var options = MigrationOptions(backup: false)
        let carry = Carry()
        options.stages = [Self.stage(carry)]
        try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options)
        let rows = try store.rows("Event", model: try Self.v2())
        #expect(rows[1]?["fullName"] == .string("Ada Lovelace"))
        #expect(rows[2]?["fullName"] == .string("Alan Turing"))
        #expect(rows[1]?["at"] == .date(Date(timeIntervalSince1970: -3_986_409_600)))
        #expect(rows[2]?["at"] == .date(Date(timeIntervalSince1970: -1_045_699_200)))
    }

    @Test func aFailingStageRollsTheMigrationBack() throws {
        let store = try MigrationTestStore(try Self.v1(), fill: Self.fill)
        var options = MigrationOptions(backup: false)
        options.stages = [Self.stage(Carry(), failing: true)]
        #expect { try StoreMigrator.migrate(storeAt: store.url, to: try Self.v2(), options: options) } throws: { e in
            "\(e)".contains("migration stage dates and names: stop; nothing was changed")
        }
        let reopened = try PersistentStore(url: store.url, model: nil)
        #expect(reopened.model.versionHash == (try Self.v1()).versionHash)
        #expect(try sqliteScalar(store.path, "SELECT count(*) FROM pragma_table_info('Event') WHERE name = 'when'") == "1")
    }
}
