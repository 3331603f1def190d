import Foundation
import Testing
@testable import VellumStore

@Suite(.serialized) struct ConcurrencyWriteQueueTests {
    @Test(arguments: StoreEngine.allCases) func eightProducersThousandWritesEachInOrder(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        container.automaticallyMergesChanges = false
        let producers = 8, perProducer = 1000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for p in 0..<producers {
                group.addTask {
                    // Enqueue all writes without waiting, then wait for the last.
                    let done = AsyncStream<Result<Int, Error>>.makeStream()
                    for i in 0..<perProducer {
                        container.enqueue({ ctx in
                            try ctx.insert("Product", values: ["name": .string("p\(p)"), "stock": .integer(Int64(i))])
                            return i
                        }, completion: { done.continuation.yield($0) })
                    }
                    var count = 0
                    for await r in done.stream {
                        _ = try r.get()
                        count += 1
                        if count == perProducer { break }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(container.pendingWriteCount == 0)
        let ctx = try ManagedObjectContext(store: container.store)
        let rows = try ctx.connection.rows(#"SELECT "name", "stock" FROM "Product" ORDER BY "_pk""#)
        #expect(rows.count == producers * perProducer)
        for p in 0..<producers {
            let stocks = rows.filter { $0[0] == .string("p\(p)") }.compactMap { $0[1].integerValue }
            #expect(stocks == (0..<Int64(perProducer)).map { $0 }, "producer \(p) applied out of order")
        }
    }

    @Test(arguments: StoreEngine.allCases) func failingBlockChangesNothingAndQueueContinues(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        struct Boom: Error {}
        try await container.enqueue { ctx in try ctx.insert("Tag", values: ["name": .string("first")]); return () }
        await #expect(throws: Boom.self) {
            try await container.enqueue { ctx -> Void in
                try ctx.insert("Tag", values: ["name": .string("never")])
                throw Boom()
            }
        }
        // A save that fails validation reports its error too.
        await #expect(throws: StoreError.self) {
            try await container.enqueue { ctx -> Void in _ = try ctx.insert("Provider") }
        }
        let n = try await container.enqueue { ctx in
            try ctx.insert("Tag", values: ["name": .string("after")])
            return try ctx.count(FetchRequest(entityName: "Tag"))
        }
        #expect(n == 2)
        let names = try ManagedObjectContext(store: container.store).fetch("Tag").map { try $0["name"] }
        #expect(Set(names) == [.string("first"), .string("after")])
    }

    @Test func backgroundContextPerform() async throws {
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: nil, options: .inMemory)
        let bg = try container.newBackgroundContext()
        let id = try await bg.perform { ctx in
            let t = try ctx.insert("Tag", values: ["name": .string("x")])
            try ctx.save()
            return t.objectID
        }
        let name = try bg.performAndWait { ctx in try ctx.existingObject(with: id)["name"] }
        #expect(name == .string("x"))
        // Reentrant.
        let nested = try bg.performAndWait { _ in try bg.performAndWait { ctx in try ctx.count(FetchRequest(entityName: "Tag")) } }
        #expect(nested == 1)
    }
}

@MainActor
@Suite(.serialized) struct ConcurrencyMergeTests {
    @Test(arguments: StoreEngine.allCases) func backgroundSaveMergesIntoViewContext(_ engine: StoreEngine) async throws {
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        let view = container.viewContext
        var events: [ObjectsDidChange] = []
        view.observeChanges { events.append($0) }
        let temporaryID = try await container.enqueue { ctx in
            try ctx.insert("Product", values: ["name": .string("Tea"), "price": .double(1)]).objectID
        }
        // The ID taken before the save resolves to the saved object's permanent ID.
        let id = try #require(container.store.permanentID(for: temporaryID))
        #expect(!id.isTemporary)
        #expect(try view.object(with: temporaryID).objectID == id)
        // Inserted objects are announced even though the view context never loaded them.
        #expect(await waitUntil { events.contains { $0.inserted.contains(id) } })
        let tea = try view.existingObject(with: id)
        #expect(try tea["price"] == .double(1))
        try await container.enqueue { ctx in try ctx.existingObject(with: id).setValue(.double(2), forKey: "price") }
        #expect(await waitUntil { (try? tea["price"]) == .double(2) })
        #expect(events.contains { $0.updated.contains(id) && $0.changedKeys[id] == ["price"] })
        // Local unsaved edits survive the merge.
        try tea.setValue(.string("Green tea"), forKey: "name")
        try await container.enqueue { ctx in try ctx.existingObject(with: id).setValue(.double(3), forKey: "price") }
        #expect(await waitUntil { (try? tea["price"]) == .double(3) })
        #expect(try tea["name"] == .string("Green tea"))
        try view.save()  // no conflict: the merge moved its snapshot on
        try await container.enqueue { ctx in try ctx.delete(ctx.existingObject(with: id)) }
        #expect(await waitUntil { events.contains { $0.deleted.contains(id) } })
        #expect(view.registeredObject(for: id) == nil)
    }

    @Test(arguments: StoreEngine.allCases) func mergeUnderLoadLeavesViewContextEqualToStore(_ engine: StoreEngine) async throws {
        let seed = SeededRandom.seedFromEnvironment()
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        let view = container.viewContext
        // Managed objects cannot leave a write block (they are not Sendable); IDs can.
        try await container.enqueue { ctx in
            for i in 0..<20 { try ctx.insert("Product", values: ["name": .string("p\(i)"), "price": .double(0)]) }
        }
        let saved = try await container.enqueue { ctx in try ctx.fetchObjectIDs(FetchRequest(entityName: "Product")) }
        let objects = try saved.map { try view.existingObject(with: $0) }
        for round in 0..<200 {
            let target = saved.randomElement(using: &rng)!
            let price = Double(round)
            if Bool.random(using: &rng) {
                container.enqueue({ ctx in try ctx.existingObject(with: target).setValue(.double(price), forKey: "price") }, completion: { _ in })
            } else {
                let o = objects.randomElement(using: &rng)!
                try o.setValue(.integer(Int64(round % 100)), forKey: "stock")
                do { try view.save() } catch StoreError.conflicts { view.rollback() }
            }
            if round % 10 == 0 { try? await Task.sleep(nanoseconds: 1_000_000) }
        }
        #expect(await waitUntil { container.pendingWriteCount == 0 })
        try? await Task.sleep(nanoseconds: 50_000_000)
        let settled = try await waitUntil {
            let fresh = try ManagedObjectContext(store: container.store)
            return try saved.allSatisfy { id in
                try fresh.existingObject(with: id).dictionaryOfValues() == view.existingObject(with: id).dictionaryOfValues()
            }
        }
        #expect(settled, "seed \(seed)")
    }
}
