import Foundation
import Testing
@testable import VellumStore

/// Records change sets and checks each against snapshots and a fresh evaluation.
@MainActor
final class ResultsChecker {
    let controller: ResultsController
    var previous: ResultsSnapshot
    var delivered: [ResultsChangeSet] = []
    /// The change sets so far; reading them reads the controller, which first applies
    /// the changes collected in this main-queue turn (ResultsController+Coalescing).
    var sets: [ResultsChangeSet] {
        controller.applyPendingChanges()
        return delivered
    }
    var failures: [String] = []

    init(_ controller: ResultsController) throws {
        self.controller = controller
        try controller.performFetch()
        previous = controller.snapshot
        controller.onChangeSet = { [unowned self] c in self.check(c) }
    }

    func check(_ c: ResultsChangeSet) {
        delivered.append(c)
        let now = controller.snapshot
        do {
            let applied = try previous.applying(c)
            if applied != now { failures.append("apply mismatch: \(applied) vs \(now) for \(c)") }
        } catch { failures.append("apply failed: \(error)") }
        var flat = previous.objectIDs.map { c.renamedIDs[$0] ?? $0 }
        if let d = flat.applying(c.difference) { flat = d } else { failures.append("difference does not apply") }
        if flat != now.objectIDs { failures.append("difference mismatch") }
        for m in c.objectMoves where m.from == m.to { failures.append("move in place \(m)") }
        previous = now
    }

    /// The expected IDs, by in-memory evaluation of every object of the entity.
    func expected() throws -> [ObjectID] {
        let r = controller.fetchRequest
        let all = try controller.context.fetch(FetchRequest(entityName: r.entityName))
        let matching = try all.filter { try r.predicate?.evaluate($0, variables: r.variables) ?? true }
        return try QuerySortDescriptor.sort(matching, by: r.sortDescriptors).map(\.objectID)
    }
}

/// The same expectations on a SQLite file and on a PostgreSQL schema (`StoreEngine`),
/// one parameterised suite (issue #18).
@MainActor
struct ResultsControllerTests {
    let dir = TempDir()

    /// A shop store on one engine, its container and view context.
    @MainActor
    struct Shop {
        let container: PersistentContainer
        var view: ManagedObjectContext { container.viewContext }

        init(_ engine: StoreEngine, _ dir: TempDir) throws {
            container = try engine.container(Fixtures.shopModel(), in: dir)
        }

        func product(_ name: String, _ price: Double, provider: ManagedObject? = nil, active: Bool = true) throws -> ManagedObject {
            let p = try view.insert("Product", values: ["name": .string(name), "price": .double(price), "active": .bool(active)])
            if let provider { try p.setToOne("provider", provider) }
            return p
        }

        func names(_ c: ResultsController) throws -> [[String]] {
            try c.sections.map { s in try s.objectIDs.map { try view.existingObject(with: $0)["name"].stringValue ?? "" } }
        }
    }

    @Test(arguments: StoreEngine.allCases) func sectionsNeedTheirKeyAsFirstSort(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let a = ResultsController(fetchRequest: FetchRequest(entityName: "Product"), context: shop.view, sectionKeyPath: "price")
        #expect(try #require(throws: StoreError.self) { try a.performFetch() }.resultsError == .missingSortDescriptors)
        let b = ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("name")]),
                                  context: shop.view, sectionKeyPath: "price")
        #expect(try #require(throws: StoreError.self) { try b.performFetch() }.resultsError
                == .sectionKeyPathNotFirstSortKey(sectionKeyPath: "price", firstSortKey: "name"))
    }

    /// Without sort descriptors the order is by object ID; it stays live.
    @Test(arguments: StoreEngine.allCases) func unsortedListIsInIDOrderAndLive(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir)
        let a = try shop.product("b", 1), b = try shop.product("a", 2)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product"), context: shop.view))
        #expect(checker.controller.fetchedObjectIDs == [a.objectID, b.objectID])
        try shop.view.delete(a)
        let c = try shop.product("c", 3)
        try shop.view.save()
        #expect(checker.controller.fetchedObjectIDs == [b.objectID, c.objectID])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    /// A first page is drawn at once; the rest is indexed on demand, silently (nothing visible moves).
    @Test(arguments: StoreEngine.allCases) func firstPageThenComplete(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir)
        for i in 0..<30 { _ = try shop.product("p\(i)", Double(i)) }
        try shop.view.save()
        let controller = ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price", ascending: false)]), context: shop.view)
        var reloads = 0
        controller.onChangeSet = { if $0.isReload { reloads += 1 } }
        try controller.performFetch(firstPage: 10)
        #expect(!controller.isComplete)
        #expect(controller.fetchedObjectCount == 30)
        #expect(try controller.object(at: ResultsIndexPath(item: 0, section: 0))["name"] == .string("p29"))
        try controller.completeFetch()
        #expect(controller.isComplete && reloads == 0)
        #expect(controller.fetchedObjectIDs.count == 30)
        #expect(try controller.object(at: ResultsIndexPath(item: 29, section: 0))["name"] == .string("p0"))
        // Reading past the first page completes it on demand.
        let lazy = ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: shop.view)
        try lazy.performFetch(firstPage: 5)
        #expect(try lazy.object(at: ResultsIndexPath(item: 20, section: 0))["name"] == .string("p20"))
        #expect(lazy.isComplete)
    }

    @Test(arguments: StoreEngine.allCases) func fetchSectionsAndBatchedObjects(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        for i in 0..<10 { _ = try shop.product("p\(i)", Double(i % 3)) }
        try shop.view.save()
        let c = ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price"), QuerySortDescriptor("name")], fetchBatchSize: 4),
                                  context: shop.view, sectionKeyPath: "price")
        try c.performFetch()
        #expect(c.fetchedObjectCount == 10)
        #expect(c.sections.map(\.name) == ["0.0", "1.0", "2.0"].map { "\(Value.double(Double($0)!))" })
        #expect(c.sections.map(\.numberOfObjects) == [4, 3, 3])
        let o = try c.object(at: ResultsIndexPath(item: 1, section: 1))
        #expect(try o["name"] == .string("p4"))
        #expect(c.indexPath(for: o.objectID) == ResultsIndexPath(item: 1, section: 1))
    }

    @Test(arguments: StoreEngine.allCases) func updateNotMoveWhenPositionUnchangedAndNoMoveInPlace(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let a = try shop.product("a", 1), b = try shop.product("b", 2), _ = try shop.product("c", 3)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: shop.view))
        try b.setValue(.double(2.5), forKey: "price")  // same position
        #expect(checker.sets.last?.objectUpdates.map(\.id) == [b.objectID])
        #expect(checker.sets.last?.objectMoves.isEmpty == true)
        try a.setValue(.double(10), forKey: "price")  // moves to the end
        #expect(checker.sets.last?.objectMoves.map(\.id) == [a.objectID])
        #expect(checker.sets.last?.objectUpdates.isEmpty == true)
        try b.setValue(.string("bb"), forKey: "name")  // not a sort key: update
        #expect(checker.sets.last?.objectUpdates.map(\.id) == [b.objectID])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func predicateMatchInsertsAndDeletes(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let a = try shop.product("a", 1, active: false), _ = try shop.product("b", 2)
        try shop.view.save()
        let req = FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"), sortDescriptors: [QuerySortDescriptor("name")])
        let checker = try ResultsChecker(ResultsController(fetchRequest: req, context: shop.view))
        #expect(checker.controller.fetchedObjectCount == 1)
        try a.setValue(.bool(true), forKey: "active")
        #expect(checker.sets.last?.objectInserts.map(\.indexPath) == [ResultsIndexPath(item: 0, section: 0)])
        try shop.view.delete(a)
        #expect(checker.sets.last?.objectDeletes.map(\.id) == [a.objectID])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func lastRowLeavingSectionDeletesSectionInSameBatch(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let a = try shop.product("a", 1), _ = try shop.product("b", 2)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price"), QuerySortDescriptor("name")]),
                                                           context: shop.view, sectionKeyPath: "price"))
        try a.setValue(.double(2), forKey: "price")
        let c = try #require(checker.sets.last)
        #expect(c.sectionDeletes.map(\.index) == [0])
        #expect(c.objectMoves.count + c.objectInserts.count == 1)
        try a.setValue(.double(5), forKey: "price")
        #expect(checker.sets.last?.sectionInserts.map(\.index) == [1])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func relatedObjectKeyChangeResorts(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let x = try shop.view.insert("Provider", values: ["name": .string("X")]), y = try shop.view.insert("Provider", values: ["name": .string("Y")])
        let a = try shop.product("a", 1, provider: x), _ = try shop.product("b", 2, provider: y)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("provider.name")]), context: shop.view))
        #expect(checker.controller.fetchedObjectIDs.first == a.objectID)
        try x.setValue(.string("Z"), forKey: "name")
        #expect(checker.controller.fetchedObjectIDs.last == a.objectID)
        #expect(checker.sets.last?.objectMoves.count == 1)
        #expect(try checker.controller.fetchedObjectIDs == checker.expected())
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    /// A provider's membership depends on its products' values and on which
    /// products it has: both kinds of change re-evaluate it.
    @Test(arguments: StoreEngine.allCases) func subqueryOverRelatedObjectsIsLive(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let x = try shop.view.insert("Provider", values: ["name": .string("X")]), y = try shop.view.insert("Provider", values: ["name": .string("Y")])
        let cheap = try shop.product("cheap", 5, provider: x), dear = try shop.product("dear", 500, provider: y)
        try shop.view.save()
        let request = FetchRequest(entityName: "Provider", predicate: try QueryPredicate(format: "SUBQUERY(products, $p, $p.price > 100).@count > 0"),
                                   sortDescriptors: [QuerySortDescriptor("name")])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: shop.view))
        #expect(checker.controller.fetchedObjectIDs == [y.objectID])
        try cheap.setValue(.double(150), forKey: "price")       // a product's value changes
        #expect(checker.controller.fetchedObjectIDs == [x.objectID, y.objectID])
        try dear.setToOne("provider", x)                          // a product moves
        #expect(checker.controller.fetchedObjectIDs == [x.objectID])
        #expect(try checker.controller.fetchedObjectIDs == checker.expected())
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func backgroundInsertsNeverLoadedAppearAfterMerge(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir)
        _ = try shop.product("a", 1)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: shop.view))
        try await shop.container.enqueue { ctx in
            try ctx.insert("Product", values: ["name": .string("bg"), "price": .double(0.5)])
            try ctx.save()
        }
        #expect(await waitUntil { checker.controller.fetchedObjectCount == 2 })
        #expect(checker.sets.last?.objectInserts.map(\.indexPath) == [ResultsIndexPath(item: 0, section: 0)])
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    /// `:sort products.@count` in the browser: providers move as products are added,
    /// moved between them or deleted, here and by a background save, without a refetch.
    @Test(arguments: StoreEngine.allCases) func aListSortedByACountFollowsChangesToTheCountedObjects(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir)
        let letters = ["A", "B", "C"]
        let providers = try letters.map { try shop.view.insert("Provider", values: ["name": .string($0)]) }
        for (i, n) in [3, 1, 0].enumerated() { for k in 0..<n { _ = try shop.product("\(letters[i])\(k)", 1, provider: providers[i]) } }
        try shop.view.save()
        let request = FetchRequest(entityName: "Provider", sortDescriptors: [QuerySortDescriptor(keyPath: ["products", "@count"], ascending: false),
                                                                            QuerySortDescriptor("name")])
        let checker = try ResultsChecker(ResultsController(fetchRequest: request, context: shop.view))
        func order() throws -> [String] { try shop.names(checker.controller).flatMap { $0 } }
        #expect(try order() == ["A", "B", "C"])
        // Inserted: C gains two and passes B.
        _ = try shop.product("C0", 1, provider: providers[2])
        _ = try shop.product("C1", 1, provider: providers[2])
        #expect(try order() == ["A", "C", "B"])
        // Moved: one of A's products goes to B (both counts change: A 2, C 2, B 2).
        let moved = try #require(try providers[0].toMany("products").first)
        try moved.setToOne("provider", providers[1])
        #expect(try order() == ["A", "B", "C"])
        try shop.view.save()
        // Deleted by a background save: B drops to 1.
        let gone = try #require(try providers[1].toMany("products").first?.objectID)
        try await shop.container.enqueue { ctx in try ctx.delete(try ctx.existingObject(with: gone)) }
        #expect(await waitUntil { (try? order()) == ["A", "C", "B"] })
        #expect(try checker.controller.fetchedObjectIDs == checker.expected())
        #expect(checker.sets.allSatisfy { !$0.isReload }, "followed incrementally, not reloaded")
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func resetReloads(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        _ = try shop.product("a", 1)
        try shop.view.save()
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: shop.view))
        shop.view.reset()
        #expect(checker.sets.count == 1 && checker.sets[0].isReload)
        #expect(checker.controller.fetchedObjectCount == 1)
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }

    @Test(arguments: StoreEngine.allCases) func localSaveRenamesTemporaryIDs(_ engine: StoreEngine) throws {
        let shop = try Shop(engine, dir)
        let checker = try ResultsChecker(ResultsController(fetchRequest: FetchRequest(entityName: "Product", sortDescriptors: [QuerySortDescriptor("price")]), context: shop.view))
        let a = try shop.product("a", 1)
        #expect(checker.controller.fetchedObjectIDs == [a.objectID])
        try shop.view.save()
        #expect(checker.controller.fetchedObjectIDs == [a.objectID])
        #expect(!a.objectID.isTemporary)
        #expect(checker.failures.isEmpty, "\(checker.failures)")
    }
}
