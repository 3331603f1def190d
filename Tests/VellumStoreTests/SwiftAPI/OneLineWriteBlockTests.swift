import Foundation
import Testing
@testable import VellumStore

/// Issue 16: `try await container.enqueue { ctx in try ctx.insert(…) }` did not compile:
/// the one-line block's value is a managed object, which is not Sendable.
@Suite struct OneLineWriteBlockTests {
    @Test func aOneLineInsertBlockRunsOnTheWriteQueueAndIsSaved() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("q.sqlite"))
        try await container.enqueue { ctx in try ctx.insert("Product", values: ["name": "Tea", "price": 3.5]) }
        // A Sendable value still comes back, and may be ignored without a warning.
        let names: [String] = try await container.enqueue { ctx in
            try ctx.fetch("Product").map { try $0["name"].stringValue ?? "" }
        }
        try await container.enqueue { ctx in try ctx.count(FetchRequest(entityName: "Product")) }
        #expect(names == ["Tea"])
    }

    @Test func aOneLinePerformOnABackgroundContextRuns() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("b.sqlite"))
        let background = try container.newBackgroundContext()
        try await background.perform { ctx in try ctx.insert("Tag", values: ["name": "green"]) }
        let pending = try await background.perform { ctx in ctx.insertedObjects.count }
        #expect(pending == 1)
        try await background.perform { ctx in try ctx.save() }
        let saved = try await container.enqueue { ctx in try ctx.count(FetchRequest(entityName: "Tag")) }
        #expect(saved == 1)
    }
}
