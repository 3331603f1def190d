import Foundation
import Testing
@testable import VellumStore

/// Issue 16: objects whose section key is nil and those whose key is "" fell into one
/// section named "" — nil and the empty string were indistinguishable.
@Suite struct SectionNameNilTests {
    @Test func nilAndEmptySectionKeysMakeTwoSections() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        for (name, country) in [("A", nil), ("B", ""), ("C", "FR"), ("D", nil)] as [(String, String?)] {
            try ctx.insert("Provider", values: ["name": .string(name), "country": country.map(Value.string) ?? nil])
        }
        try ctx.save()
        let controller = ResultsController(
            fetchRequest: FetchRequest(entityName: "Provider", sortDescriptors: [QuerySortDescriptor("country"), QuerySortDescriptor("name")]),
            context: ctx, sectionKeyPath: "country")
        try controller.performFetch()
        #expect(controller.sections.map(\.name) == [nil, "", "FR"])
        #expect(controller.sections.map(\.numberOfObjects) == [2, 1, 1])

        // Moving B from "" to nil empties the "" section: a section delete naming "", not nil.
        var changes: [ResultsChangeSet] = []
        controller.onChangeSet = { changes.append($0) }
        let b = try #require(try ctx.fetch("Provider", where: QueryPredicate(format: "name == 'B'")).first)
        try b.setValue(.null, forKey: "country")
        try ctx.save()
        #expect(controller.sections.map(\.name) == [nil, "FR"])
        #expect(changes.last?.sectionDeletes.map(\.name) == [""])
    }
}
