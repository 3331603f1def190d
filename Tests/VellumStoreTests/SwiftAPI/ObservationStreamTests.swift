import Foundation
import Testing
@testable import VellumStore

/// Issue 16: a fetch observed as values — an `AsyncSequence` of Sendable snapshots, one
/// per committed transaction, never a torn state (half of a transaction's inserts).
@MainActor
@Suite struct ObservationStreamTests {
    @Test func eachTransactionArrivesAsOneSnapshotOfValues() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("o.sqlite"))
        let names = container.observe(FetchRequest(entityName: "Tag", sortDescriptors: [QuerySortDescriptor("name")])) {
            try $0["name"].stringValue ?? "?"
        }
        var iterator = names.makeAsyncIterator()
        #expect(try await iterator.next() == [])

        try await container.enqueue { ctx in
            for name in ["c", "a", "b"] { try ctx.insert("Tag", values: ["name": .string(name)]) }
        }
        #expect(try await iterator.next() == ["a", "b", "c"], "the three inserts of one transaction arrive together")

        try await container.enqueue { ctx in
            for tag in try ctx.fetch("Tag") {
                switch try tag["name"] {
                case "a": try tag.setValue("d", forKey: "name")
                case "b": try ctx.delete(tag)
                default: break
                }
            }
        }
        #expect(try await iterator.next() == ["c", "d"])
    }

    @Test func aFailingTransformEndsTheStreamWithItsError() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("e.sqlite"))
        try await container.enqueue { ctx in try ctx.insert("Tag", values: ["name": "x"]) }
        let stream = container.observe(FetchRequest(entityName: "Tag")) { try $0["colour"] }
        await #expect(throws: StoreError.self) { for try await _ in stream {} }
    }
}
