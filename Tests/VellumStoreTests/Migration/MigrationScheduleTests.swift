import Foundation
import Testing
@testable import VellumStore

/// A migration plan with stages between versions: each step's custom stages run only
/// when a store passes through that step, in that step's transaction.
@Suite struct MigrationScheduleTests {
    typealias V = MigrationVersionTests

    /// v3 adds `initials`, which inference cannot compute: a custom stage after the v2 → v3 step.
    static func v3() throws -> ManagedObjectModel {
        try ModelBuilder(versionIdentifier: "3").entity("Person") {
            $0.attribute("fullName", .string)
            $0.attribute("age", .integer16)
            $0.attribute("initials", .string)
        }.build()
    }

    final class Runs: Sendable {
        let seen = Locked<[String]>([])
        func note(_ s: String) { seen.withLock { $0.append(s) } }
        var all: [String] { seen.withLock { $0 } }
    }

    static func schedule(_ runs: Runs) throws -> MigrationSchedule {
        MigrationSchedule(try V.person("name", renamedFrom: nil))
            .lightweight(to: try V.person("fullName", renamedFrom: "name"))
            .custom(to: try v3(), .withContext("initials", before: { context in
                // Before the schema step the store has v2's shape: no `initials` yet.
                runs.note("before:\(context.store.model.entity(named: "Person")!.attributes.map(\.name).sorted())")
            }, after: { context in
                runs.note("after")
                for person in try context.fetch("Person") {
                    let name = try person.value(forKey: "fullName").stringValue ?? ""
                    try person.setValue(.string(String(name.prefix(1))), forKey: "initials")
                }
            }))
    }

    @Test func aStoreAtTheFirstVersionRunsEveryStepAndTheStagesOfItsStepOnce() throws {
        let runs = Runs()
        let store = try MigrationTestStore(try V.person("name", renamedFrom: nil), fill: V.fill)
        let results = try StoreMigrator.migrate(storeAt: store.url, following: try Self.schedule(runs), options: MigrationOptions(backup: true))
        #expect(results.map(\.migrated) == [true, true])
        #expect(results[0].backupPath != nil && results[1].backupPath == nil)
        #expect(runs.all == ["before:[\"age\", \"fullName\"]", "after"])
        let rows = try store.rows("Person", model: try Self.v3())
        #expect(Set(rows.values.map { [$0["fullName"]!, $0["initials"]!] }) == [
            [.string("Ada"), .string("A")], [.string("Grace"), .string("G")],
        ])
        // Again: the store holds v3, no step runs, no stage runs.
        #expect(try StoreMigrator.migrate(storeAt: store.url, following: try Self.schedule(runs)).isEmpty)
        #expect(runs.all.count == 2)
    }

    @Test func aStoreAtTheMiddleVersionRunsOnlyTheLaterStep() throws {
        let runs = Runs()
        let store = try MigrationTestStore(try V.person("name", renamedFrom: nil), fill: V.fill)
        try store.migrate(to: try V.person("fullName", renamedFrom: "name"))
        let results = try StoreMigrator.migrate(storeAt: store.url, following: try Self.schedule(runs))
        #expect(results.count == 1 && results[0].migrated)
        #expect(runs.all == ["before:[\"age\", \"fullName\"]", "after"])
    }

    /// A lightweight step never runs the next step's stages.
    @Test func stagesOfALaterStepDoNotRunOnAnEarlierOne() throws {
        let runs = Runs()
        let v1 = try V.person("name", renamedFrom: nil), v2 = try V.person("fullName", renamedFrom: "name")
        let store = try MigrationTestStore(v1, fill: V.fill)
        let partial = MigrationSchedule(v1).lightweight(to: v2)
        #expect(try StoreMigrator.migrate(storeAt: store.url, following: partial).map(\.migrated) == [true])
        #expect(runs.all.isEmpty)
        _ = try Self.schedule(runs)
        #expect(runs.all.isEmpty)
    }

    /// A store of none of the versions: with custom stages, which ones apply would be a guess.
    @Test func aStoreOfAnUnknownVersionIsRefusedWhenStepsHaveStages() throws {
        let runs = Runs()
        let other = try ModelBuilder().entity("Person") { $0.attribute("name", .string); $0.attribute("age", .integer16); $0.attribute("nick", .string) }.build()
        let store = try MigrationTestStore(other, fill: V.fill)
        let before = try store.bytes()
        #expect(throws: StoreError.self) { try StoreMigrator.migrate(storeAt: store.url, following: try Self.schedule(runs)) }
        #expect(try store.bytes() == before && runs.all.isEmpty)
        // Without stages it migrates straight to the last, as `migrate(through:)` does.
        let light = MigrationSchedule(try V.person("name", renamedFrom: nil)).lightweight(to: try Self.v3())
        #expect(try StoreMigrator.migrate(storeAt: store.url, following: light).map(\.migrated) == [true])
    }

    /// The whole schedule is one transaction: a later step that fails (here its stage
    /// throws) leaves the store at the version it held, not at the step before, with
    /// its rows, its model and no backup written. (Each step used to commit on its own.)
    @Test func aScheduleWhoseLastStepFailsLeavesTheStoreAtItsFirstVersion() throws {
        struct StageFailed: Error {}
        let v1 = try V.person("name", renamedFrom: nil), v2 = try V.person("fullName", renamedFrom: "name")
        let store = try MigrationTestStore(v1, fill: V.fill)
        let rowsBefore = try store.rows("Person", model: v1)
        let failing = MigrationSchedule(v1).lightweight(to: v2)
            .custom(to: try Self.v3(), .withContext("initials", after: { _ in throw StageFailed() }))
        #expect(throws: (any Error).self) { try StoreMigrator.migrate(storeAt: store.url, following: failing, options: MigrationOptions(backup: false)) }
        #expect(try StoreMigrator.plan(storeAt: store.url, to: v1).fromHash == v1.versionHash)
        #expect(try store.rows("Person", model: v1) == rowsBefore)
        // Nothing half-done stays behind: the whole schedule runs again and succeeds.
        #expect(try StoreMigrator.migrate(storeAt: store.url, following: try Self.schedule(Runs())).map(\.migrated) == [true, true])
    }
}
