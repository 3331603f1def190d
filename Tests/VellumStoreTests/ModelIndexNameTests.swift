import Foundation
import Testing
@testable import VellumStore

/// Found by the randomized migration test: a model with one index name twice in a
/// hierarchy (which shares one table) was accepted, and the store's creation or migration
/// then failed with SQLite's "index R_by_a1 already exists". The model now refuses it,
/// naming the entity and the index, before any file is touched.
@Suite struct ModelIndexNameTests {
    static func refusal(_ build: () throws -> ManagedObjectModel) -> String? {
        do { _ = try build(); return nil } catch { return "\(error)" }
    }

    @Test func anIndexNameDeclaredTwiceInOneEntityIsRefusedNamingIt() {
        let text = Self.refusal {
            try ModelBuilder().entity("Person") {
                $0.attribute("name", .string)
                $0.attribute("age", .integer16)
                $0.index("byAge", "age")
                $0.index("byAge", "name")
            }.build()
        }
        #expect(text?.contains("entity Person: index byAge is declared twice in its hierarchy") == true, "\(text ?? "accepted")")
    }

    @Test func anIndexNameUsedBySiblingEntitiesOfOneTableIsRefused() {
        let text = Self.refusal {
            try ModelBuilder()
                .entity("Item") { $0.attribute("title", .string) }
                .entity("Task", parent: "Item") { $0.attribute("due", .date); $0.index("byKey", "due") }
                .entity("Note", parent: "Item") { $0.attribute("text", .string); $0.index("byKey", "text") }
                .build()
        }
        #expect(text?.contains("index byKey is declared twice in its hierarchy") == true, "\(text ?? "accepted")")
    }

    @Test func oneIndexNameInTwoHierarchiesIsFineAndTheStoreIsCreated() throws {
        let model = try ModelBuilder()
            .entity("Person") { $0.attribute("name", .string); $0.index("byName", "name") }
            .entity("Pet") { $0.attribute("name", .string); $0.index("byName", "name") }
            .build()
        let dir = TempDir()
        _ = try PersistentStore(url: dir.file("two.sqlite"), model: model)
    }
}
