import Foundation
import Testing
@testable import VellumStore

/// A live list under random changes, compared after each step with a fresh evaluation, on a
/// SQLite file and on a PostgreSQL schema (`StoreEngine`), one parameterised suite.
@MainActor
struct ResultsControllerRandomizedTests {
    /// Runs of `steps` random changes, each from its own seed. Several short runs rather than one
    /// long one: each step compares the whole list with a fresh evaluation, so one long run was the
    /// suite's critical path (alone for its last two minutes under TSan), and short runs reach the
    /// same kinds of change (moves across batches and sections, remote saves) from more seeds.
    /// A long run on demand: `VELLUM_RANDOM_STEPS=5000 VELLUM_SEED=N swift test --filter randomChanges`.
    /// PostgreSQL runs 150 steps a run, not 400: its steps cost about 1.4 times SQLite's (server
    /// round trips; 4 runs of 400 took 11 s against 8 s on 2 shared cores), this test was already
    /// the suite's critical path under TSan, and what PostgreSQL adds (its SQL for the fetches,
    /// saves and keys) is reached many times within 150 steps (that SQL's meaning is compared with
    /// memory by `QueryDifferentialTests`).
    static func steps(_ engine: StoreEngine) -> Int {
        if let steps = ProcessInfo.processInfo.environment["VELLUM_RANDOM_STEPS"].flatMap(Int.init) { return steps }
        switch engine {
        case .sqlite: return 400
        case .postgresql: return 150
        }
    }

    @Test(arguments: StoreEngine.allCases, 0..<4)
    func randomChangesKeepControllerEqualToFreshEvaluation(_ engine: StoreEngine, run: Int) async throws {
        let seed = SeededRandom.seedFromEnvironment() &+ UInt64(run)
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let container = try engine.container(Fixtures.shopModel(), in: dir)
        let view = container.viewContext
        var providers: [ManagedObject] = []
        for i in 0..<4 { providers.append(try view.insert("Provider", values: ["name": .string("v\(i)")])) }
        try view.save()
        let req = FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"),
                               sortDescriptors: [QuerySortDescriptor("stock"), QuerySortDescriptor("provider.name"), QuerySortDescriptor("price", ascending: false)],
                               fetchBatchSize: 8)
        let checker = try ResultsChecker(ResultsController(fetchRequest: req, context: view, sectionKeyPath: "stock"))
        var products: [ManagedObject] = []
        for step in 0..<Self.steps(engine) {
            // Each step is synchronous main-actor work: let the other main-actor tests' queued
            // work (a refetch's result, a merge) run between steps instead of waiting for the whole run.
            await Task.yield()
            let r = Int.random(in: 0..<100, using: &rng)
            let live = products.filter { !$0.isDeleted && $0.context != nil }
            if r < 20 || live.isEmpty {
                let p = try view.insert("Product", values: ["name": .string("p\(step)"), "price": .double(Double(Int.random(in: 0..<5, using: &rng))),
                                                            "stock": .integer(Int64.random(in: 0..<4, using: &rng)), "active": .bool(Bool.random(using: &rng))])
                try p.setToOne("provider", providers.randomElement(using: &rng)!)
                products.append(p)
            } else if r < 40 {
                try live.randomElement(using: &rng)!.setValue(.double(Double(Int.random(in: 0..<5, using: &rng))), forKey: "price")
            } else if r < 55 {
                try live.randomElement(using: &rng)!.setValue(.integer(Int64.random(in: 0..<4, using: &rng)), forKey: "stock")
            } else if r < 65 {
                try live.randomElement(using: &rng)!.setValue(.bool(Bool.random(using: &rng)), forKey: "active")
            } else if r < 72 {
                // Provider names are unique: a step-based suffix keeps them so while still reordering.
                try providers.randomElement(using: &rng)!.setValue(.string("v\(Int.random(in: 0..<1000, using: &rng))-\(step)"), forKey: "name")
            } else if r < 78 {
                try live.randomElement(using: &rng)!.setToOne("provider", providers.randomElement(using: &rng)!)
            } else if r < 84 {
                try view.delete(live.randomElement(using: &rng)!)
            } else if r < 94 {
                try view.save()
            } else {
                try view.save()
                let stock = Int64.random(in: 0..<4, using: &rng), price = Double(Int.random(in: 0..<5, using: &rng))
                let target = live.randomElement(using: &rng).map(\.objectID)
                try await container.enqueue { ctx in
                    if let target, let o = try? ctx.existingObject(with: target) { try o.setValue(.integer(stock), forKey: "stock") }
                    try ctx.insert("Product", values: ["name": .string("bg"), "price": .double(price), "stock": .integer(stock)])
                    try ctx.save()
                }
                _ = await waitUntil { container.pendingWriteCount == 0 }
                try? await Task.sleep(nanoseconds: 1_000_000)
            }
            let expected = try checker.expected()
            #expect(checker.controller.fetchedObjectIDs == expected, "\(engine) seed \(seed) step \(step)")
            if !view.hasChanges {
                #expect(try view.fetchObjectIDs(req) == expected, "\(engine) seed \(seed) step \(step)")
            }
            #expect(checker.failures.isEmpty, "\(engine) seed \(seed) step \(step): \(checker.failures.prefix(2))")
            if checker.controller.fetchedObjectIDs != expected || !checker.failures.isEmpty { break }
        }
    }
}
