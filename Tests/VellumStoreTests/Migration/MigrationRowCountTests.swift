import Foundation
import Testing
@testable import VellumStore

/// Issue 15, `migrate-add-attribute-1m` at 172x raw: planning counted every table's rows,
/// though a table changed in place (`ALTER TABLE … ADD COLUMN`) reads none of them. The
/// rows are counted only for a rebuild (its progress) and for checks that need them.
@Suite struct MigrationRowCountTests {
    func step(_ plan: MigrationPlan, _ entity: String) throws -> MigrationPlan.EntityStep {
        try #require(plan.steps.first { $0.entity == entity })
    }

    @Test func anAlterOnlyPlanDoesNotCountTheRows() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let plan = try StoreMigrator.plan(storeAt: store.url, to: try MigrationAttributeTests.people { $0.attribute("email", .string) })
        let person = try step(plan, "Person")
        #expect(person.strategy == .alter)
        #expect(person.rows == nil)
        #expect(plan.description.contains("Person (rows not counted, ALTER)\n  - attribute email added"), "\(plan.description)")
        #expect(plan.canRun)
    }

    @Test func aRebuildAndACheckThatNeedsThemCountTheRows() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let rebuild = try StoreMigrator.plan(storeAt: store.url, to: try ModelBuilder().entity("Person") { $0.attribute("name", .string) }.build())
        #expect(try step(rebuild, "Person").strategy == .rebuild)
        #expect(try step(rebuild, "Person").rows == 4)
        #expect(rebuild.description.contains("Person (4 rows, rebuild)"), "\(rebuild.description)")
        let required = try StoreMigrator.plan(storeAt: store.url, to: try MigrationAttributeTests.people { $0.attribute("email", .string, optional: false) })
        let person = try step(required, "Person")
        #expect(person.rows == 4)
        #expect(person.checks.first?.failingRows == 4)
        #expect(!required.canRun)
    }

    @Test func anAddedEntityHasNoRows() throws {
        let store = try MigrationTestStore(try MigrationAttributeTests.people(), fill: MigrationAttributeTests.fill)
        let plan = try StoreMigrator.plan(storeAt: store.url, to: try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.attribute("age", .integer16) }
            .entity("Pet") { $0.attribute("kind", .string) }.build())
        #expect(try step(plan, "Pet").rows == 0)
    }
}
