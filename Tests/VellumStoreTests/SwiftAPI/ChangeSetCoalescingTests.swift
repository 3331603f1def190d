import Foundation
import Testing
@testable import VellumStore

/// Issue 16: one edit of two keys and a relationship produced three change sets (three
/// will/did cycles in the delegate). On the main queue a results controller now
/// coalesces the changes of one turn into one change set, which still turns the
/// previous snapshot into the new one exactly.
@MainActor
@Suite struct ChangeSetCoalescingTests {
    final class Recorder: ResultsControllerDelegate {
        var calls: [String] = []
        var objectChanges: [ResultsObjectChangeType] = []
        func controllerWillChangeContent(_ controller: ResultsController) { calls.append("will") }
        func controller(_ controller: ResultsController, didChange objectID: ObjectID, at indexPath: ResultsIndexPath?,
                        for type: ResultsObjectChangeType, newIndexPath: ResultsIndexPath?) { objectChanges.append(type) }
        func controllerDidChangeContent(_ controller: ResultsController) { calls.append("did") }
    }

    /// Lets the main queue run what is queued on it so far (the controller's end-of-turn block).
    func endOfTurn() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in DispatchQueue.main.async { c.resume() } }
    }

    struct Shop {
        let container: PersistentContainer
        let products: [ManagedObject]
        let providers: [ManagedObject]
    }

    func shop(_ dir: TempDir) throws -> Shop {
        let container = try PersistentContainer(model: Fixtures.shopModel(), storeURL: dir.file("c.sqlite"))
        let view = container.viewContext
        let providers = try ["Acme", "Zenith"].map { try view.insert("Provider", values: ["name": .string($0)]) }
        var products: [ManagedObject] = []
        for (i, name) in ["apple", "bread", "cheese"].enumerated() {
            let p = try view.insert("Product", values: ["name": .string(name), "price": .double(Double(i + 1))])
            try p.setToOne("provider", providers[0])
            products.append(p)
        }
        try view.save()
        return Shop(container: container, products: products, providers: providers)
    }

    /// A shop, a checked controller over its products (by provider name, then price) and a recorder as its delegate.
    func observedShop(_ dir: TempDir) throws -> (Shop, ResultsChecker, Recorder) {
        let shop = try shop(dir)
        let request = FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("provider.name"), QuerySortDescriptor("price")])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: shop.container.viewContext))
        let recorder = Recorder()
        checker.controller.delegate = recorder
        return (shop, checker, recorder)
    }

    @Test func oneEditOfTwoKeysAndARelationshipIsOneChangeSet() async throws {
        let dir = TempDir()
        let (shop, checker, recorder) = try observedShop(dir)
        try shop.products[0].setValue(.double(9), forKey: "price")
        try shop.products[0].setValue(.string("avocado"), forKey: "name")
        try shop.products[0].setToOne("provider", shop.providers[1])
        await endOfTurn()
        #expect(recorder.calls == ["will", "did"])
        // The product moves; the other products under the two providers are updates (their sort key's object changed).
        #expect(recorder.objectChanges.filter { $0 == .move }.count == 1)
        #expect(checker.delivered.count == 1)
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(checker.controller.fetchedObjectIDs == [shop.products[1], shop.products[2], shop.products[0]].map(\.objectID))
    }

    @Test func editsInTwoTurnsAreTwoChangeSets() async throws {
        let dir = TempDir()
        let (shop, checker, recorder) = try observedShop(dir)
        try shop.products[2].setValue(.double(0.5), forKey: "price")
        await endOfTurn()
        try shop.products[1].setValue(.double(0.25), forKey: "price")
        await endOfTurn()
        #expect(recorder.calls == ["will", "did", "will", "did"])
        #expect(checker.delivered.count == 2)
        #expect(checker.failures.isEmpty, "\(checker.failures)")
        #expect(checker.controller.fetchedObjectIDs == [shop.products[1], shop.products[2], shop.products[0]].map(\.objectID))
    }

    /// A reader never sees a stale list: reading applies what the turn collected,
    /// delivered as the one change set of it.
    @Test func readingMidTurnAppliesTheCollectedChangesOnce() async throws {
        let dir = TempDir()
        let (shop, checker, recorder) = try observedShop(dir)
        try shop.products[0].setValue(.double(7), forKey: "price")
        try shop.products[1].setValue(.double(8), forKey: "price")
        #expect(checker.controller.fetchedObjectIDs == [shop.products[2], shop.products[0], shop.products[1]].map(\.objectID))
        #expect(recorder.calls == ["will", "did"])
        await endOfTurn()
        #expect(recorder.calls == ["will", "did"])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    /// An object inserted and deleted again within one turn never shows.
    @Test func anInsertDeletedInTheSameTurnChangesNothing() async throws {
        let dir = TempDir()
        let (shop, checker, recorder) = try observedShop(dir)
        let view = shop.container.viewContext
        let extra = try view.insert("Product", values: ["name": "dates", "price": 0.1])
        try view.delete(extra)
        await endOfTurn()
        #expect(recorder.calls.isEmpty)
        #expect(checker.controller.fetchedObjectIDs == shop.products.map(\.objectID))
    }

    /// Random batches of edits, one batch per turn: each batch is at most one change set,
    /// and every change set turns the previous snapshot into the new one exactly.
    @Test(arguments: 0..<2) func randomBatchesPerTurnKeepTheExactDiff(run: Int) async throws {
        let seed = SeededRandom.seedFromEnvironment() &+ UInt64(run)
        var rng = SeededRandom(seed: seed)
        let dir = TempDir()
        let (shop, checker, recorder) = try observedShop(dir)
        let view = shop.container.viewContext
        var products = shop.products
        for step in 0..<60 {
            let callsBefore = recorder.calls.count
            var saves = 0
            for _ in 0..<Int.random(in: 1...5, using: &rng) {
                let live = products.filter { !$0.isDeleted && $0.context != nil }
                switch live.isEmpty ? 0 : Int.random(in: 0..<10, using: &rng) {
                case 0..<2:
                    products.append(try view.insert("Product", values: ["name": .string("p\(step)"), "price": .double(Double(Int.random(in: 0..<5, using: &rng)))]))
                case 2..<5:
                    try live.randomElement(using: &rng)!.setValue(.double(Double(Int.random(in: 0..<5, using: &rng))), forKey: "price")
                case 5..<7:
                    try live.randomElement(using: &rng)!.setToOne("provider", shop.providers.randomElement(using: &rng)!)
                case 7:
                    try shop.providers.randomElement(using: &rng)!.setValue(.string("n\(Int.random(in: 0..<100, using: &rng))-\(step)"), forKey: "name")
                case 8:
                    try view.delete(live.randomElement(using: &rng)!)
                default:
                    try view.save()
                    saves += 1
                }
            }
            await endOfTurn()
            // One will/did pair per turn; a save applies what is pending first and then reports its renames.
            #expect(recorder.calls.count - callsBefore <= 2 * (1 + 2 * saves), "seed \(seed) step \(step)")
            #expect(checker.failures.isEmpty, "seed \(seed) step \(step): \(checker.failures.prefix(2))")
            #expect(checker.controller.fetchedObjectIDs == (try checker.expected()), "seed \(seed) step \(step)")
            if !checker.failures.isEmpty { break }
        }
    }
}
