import Foundation
import Testing
@testable import VellumStore

/// Write-queue blocks that pile up behind a running one share one transaction,
/// each in its own savepoint (issue #19).
@Suite struct GroupCommitTests {
    private struct BlockFailure: Error, Equatable { let index: Int }

    private enum Kind: CaseIterable { case insertTag, increment, throwAfterChange, invalid, conflict }

    /// What a caller gets back: its own value or its own error.
    private enum Outcome: Equatable {
        case value(Int)
        case thrown(Int)
        case validation
        case conflict
        case other(String)
    }

    private static func outcome(_ result: Result<Int, Error>) -> Outcome {
        switch result {
        case .success(let v): return .value(v)
        case .failure(let e as BlockFailure): return .thrown(e.index)
        case .failure(StoreError.validation): return .validation
        case .failure(StoreError.conflicts): return .conflict
        case .failure(let e): return .other("\(e)")
        }
    }

    /// The block's work; `i` is also its author, so its save and history transaction are found by it.
    private static func run(_ kind: Kind, _ i: Int, _ ctx: ManagedObjectContext) throws -> Int {
        ctx.transactionAuthor = "block-\(i)"
        func counter() throws -> ManagedObject {
            guard let c = try ctx.fetch("Product").first else { throw BlockFailure(index: -1) }
            return c
        }
        func increment() throws -> Int {
            let c = try counter()
            guard let old = try c.value(forKey: "stock").integerValue else { throw BlockFailure(index: -2) }
            let stock = old + 1
            try c.setValue(.integer(stock), forKey: "stock")
            return Int(stock)
        }
        switch kind {
        case .insertTag:
            _ = try ctx.insert("Tag", values: ["name": .string("tag-\(i)")])
            return i
        case .increment:
            return try increment()
        case .throwAfterChange:
            _ = try ctx.insert("Tag", values: ["name": .string("lost-\(i)")])
            _ = try increment()
            throw BlockFailure(index: i)
        case .invalid:
            _ = try increment()
            _ = try ctx.insert("Product", values: ["stock": .integer(1)])  // no name: required
            return i
        case .conflict:
            // Another write changes the counter's row between this block's read and its save.
            let c = try counter()
            guard let pk = c.objectID.primaryKey else { throw BlockFailure(index: -3) }
            try ctx.store.writeTransaction { db in
                try db.execute("UPDATE \"Product\" SET \"_version\" = \"_version\" + 1 WHERE \"_pk\" = \(pk)")
            }
            _ = try increment()
            return i
        }
    }

    @Test(arguments: StoreEngine.allCases) func randomBlocksAmongFailingOnesEachGetTheirOwnResultInOneCommit(_ engine: StoreEngine) async throws {
        let seed = SeededRandom.seedFromEnvironment()
        var random = SeededRandom(seed: seed)
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        container.automaticallyMergesChanges = false
        let store = container.store
        try await container.enqueue { ctx in _ = try ctx.insert("Product", values: ["name": .string("counter")]) }
        let start = try store.currentHistoryToken()
        let saves = Locked<[String]>([])
        let subscription = store.subscribeToSaves { event, _ in saves.withLock { $0.append(event.author ?? "") } }
        defer { store.unsubscribeFromSaves(subscription) }

        // The model: blocks run one after another; a failing one changes nothing.
        let count = 40 + Int(random.next() % 60)
        var kinds: [Kind] = []
        var expected: [Outcome] = []
        var stock = 0
        var tags: [String] = []
        for i in 0..<count {
            let kind = Kind.allCases[Int(random.next() % UInt64(Kind.allCases.count))]
            kinds.append(kind)
            switch kind {
            case .insertTag: expected.append(.value(i)); tags.append("tag-\(i)")
            case .increment: stock += 1; expected.append(.value(stock))
            case .throwAfterChange: expected.append(.thrown(i))
            case .invalid: expected.append(.validation)
            case .conflict: expected.append(.conflict)
            }
        }
        let committedAuthors = (0..<count).filter { if case .value = expected[$0] { true } else { false } }.map { "block-\($0)" }

        // A first block holds the queue while the others are enqueued, so they wait together.
        let gate = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            container.enqueue({ _ in
                started.resume()
                gate.wait()
            }, completion: { _ in })
        }
        let results = AsyncStream<(Int, Result<Int, Error>, Int, [String])>.makeStream()
        for (i, kind) in kinds.enumerated() {
            container.enqueue({ ctx in try Self.run(kind, i, ctx) }, completion: { result in
                // What another connection sees when the caller hears back.
                let visible = (try? Self.count(store, "Tag")) ?? -1
                results.continuation.yield((i, result, visible, saves.withLock { $0 }))
            })
        }
        gate.signal()

        var outcomes = [Outcome?](repeating: nil, count: count)
        var received = 0
        for await (i, result, visibleTags, savesSoFar) in results.stream {
            outcomes[i] = Self.outcome(result)
            // Completions fire after the shared COMMIT (every block's rows are there at the
            // first one: one commit), and after every block's save was told.
            #expect(visibleTags == tags.count, "seed \(seed)")
            #expect(savesSoFar == committedAuthors, "seed \(seed)")
            received += 1
            if received == count { break }
        }
        #expect(outcomes.map { $0! } == expected, "seed \(seed)")

        // Store state as the model says; one history transaction per committed block, in order, with its author.
        let check = try ManagedObjectContext(store: store)
        #expect(try check.fetch("Product").count == 1)
        #expect(try check.fetch("Product").first?.value(forKey: "stock") == .integer(Int64(stock)))
        #expect(Set(try check.fetch("Tag").map { try $0.value(forKey: "name").stringValue ?? "" }) == Set(tags))
        let history = try store.history(after: start)
        #expect(history.map { $0.author ?? "" } == committedAuthors, "seed \(seed)")
        for (t, author) in zip(history, committedAuthors) {
            let i = Int(author.dropFirst("block-".count))!
            #expect(t.changes.count == 1, "\(author): one change")
            #expect(t.changes.first?.kind == (kinds[i] == .insertTag ? .insert : .update))
        }
    }

    @Test func aLoneWriteRunsAtOnceInItsOwnTransaction() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("lone.sqlite"))
        let inTransaction = try await container.enqueue { ctx in
            _ = try ctx.insert("Tag", values: ["name": .string("one")])
            return ctx.connection.isInTransaction
        }
        #expect(!inTransaction)
        #expect(try Self.count(container.store, "Tag") == 1)
    }

    /// Found while building group commit: a group took the file's write lock before its
    /// blocks ran, so a block that waited (here on a semaphore) locked out other programs.
    @Test func aGroupTakesTheFileLockOnlyAtItsFirstWrite() async throws {
        let dir = TempDir()
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("lazy.sqlite"))
        let first = DispatchSemaphore(value: 0), second = DispatchSemaphore(value: 0)
        await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
            container.enqueue({ _ in started.resume(); first.wait() }, completion: { _ in })
        }
        let done = AsyncStream<Void>.makeStream(), secondStarted = AsyncStream<Void>.makeStream()
        // These two wait behind the first block, so they run as one group.
        container.enqueue({ _ in
            secondStarted.continuation.yield()
            second.wait()
        }, completion: { _ in })
        container.enqueue({ ctx in _ = try ctx.insert("Tag", values: ["name": .string("queued")]) },
                          completion: { _ in done.continuation.yield() })
        first.signal()
        for await _ in secondStarted.stream { break }
        // The group's first block is now waiting; another program writes meanwhile.
        let other = try Connection(path: container.store.path)
        try other.execute("PRAGMA busy_timeout = 200")
        let written = (try? other.execute("INSERT INTO \"Tag\" (\"_pk\", \"_entity\", \"_version\", \"name\") VALUES (1000, 'Tag', 1, 'other')")) != nil
        second.signal()
        for await _ in done.stream { break }
        #expect(written)
        #expect(try Self.count(container.store, "Tag") == 2)
    }

    private static func count(_ store: PersistentStore, _ entity: String) throws -> Int {
        let c = try store.makeReaderConnection()
        return Int(try c.scalarInt("SELECT count(*) FROM \"\(entity)\"") ?? -1)
    }
}
