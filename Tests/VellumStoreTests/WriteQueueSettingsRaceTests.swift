import Foundation
import Testing
@testable import VellumStore

/// `writeQueueMergePolicy` and `writeQueueAuthor` are changed by the caller's
/// thread while the write queue reads them for the block it runs.
@Suite struct WriteQueueSettingsRaceTests {
    /// Issue #12: both settings were plain fields the container wrote without a
    /// lock while the queue read them (ThreadSanitizer reports the race).
    @Test func writeQueueMergePolicyAndAuthorChangeWithoutARace() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("race.sqlite"))
        container.automaticallyMergesChanges = false
        let start = try container.store.currentHistoryToken()
        let writes = 300
        let authors = ["alpha", "beta"]
        let results = AsyncStream<Result<Void, Error>>.makeStream()
        // Enqueued without waiting, so the queue runs earlier blocks while later settings are written.
        for i in 0..<writes {
            container.writeQueueAuthor = authors[i % 2]
            container.writeQueueMergePolicy = i % 2 == 0 ? .mergeByPropertyObjectTrump : .error
            container.enqueue({ ctx in
                _ = try ctx.insert("Tag", values: ["name": .string("t\(i)")])
            }, completion: { results.continuation.yield($0) })
        }
        var finished = 0
        for await result in results.stream {
            try result.get()
            finished += 1
            if finished == writes { break }
        }
        let transactions = try container.store.history(after: start)
        #expect(transactions.count == writes)
        #expect(transactions.allSatisfy { authors.contains($0.author ?? "") })

        // A setting applies to the blocks enqueued after it.
        container.writeQueueAuthor = "gamma"
        container.writeQueueMergePolicy = .rollback
        let policy = try await container.enqueue { ctx in
            _ = try ctx.insert("Tag", values: ["name": .string("last")])
            return ctx.mergePolicy
        }
        #expect(policy == .rollback)
        #expect(try container.store.history(after: start).last?.author == "gamma")
        #expect(container.writeQueueAuthor == "gamma")
        #expect(container.writeQueueMergePolicy == .rollback)
    }
}
