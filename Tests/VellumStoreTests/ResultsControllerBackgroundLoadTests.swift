import Foundation
import Testing
import VellumTestSupport
@testable import VellumStore

/// A first page shown at once, the rest indexed off the main thread
/// (`completeFetchInBackground`): the list is then what a full fetch gives, also when
/// changes arrive while the reader works, and a refetch meanwhile wins over it.
/// On a SQLite file and on a PostgreSQL schema (`StoreEngine`), whose reader is a
/// connection of its own to the server.
@MainActor
struct ResultsControllerBackgroundLoadTests {
    let dir = TempDir()
    typealias Shop = ResultsControllerTests.Shop

    final class Finished { var error: StoreError?; var calls = 0 }

    static let request = FetchRequest(entityName: "Product", predicate: try? QueryPredicate.parse("active == true"),
                                      sortDescriptors: [QuerySortDescriptor("price", ascending: false), QuerySortDescriptor("name")])

    func load(_ controller: ResultsController) async -> Finished {
        let finished = Finished()
        #expect(controller.completeFetchInBackground { finished.error = $0; finished.calls += 1 })
        #expect(controller.isLoadingInBackground)
        _ = await waitUntil(timeout: 60) { finished.calls > 0 }
        return finished
    }

    @Test(arguments: StoreEngine.allCases) func theRestArrivesAndEqualsAFullFetch(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir)
        try shop.fill(300, seed: 1)
        let controller = ResultsController(fetchRequest: Self.request, context: shop.view)
        var reloads = 0
        controller.onChangeSet = { if $0.isReload { reloads += 1 } }
        try controller.performFetch(firstPage: 16)
        #expect(!controller.isComplete)
        let count = controller.fetchedObjectCount
        let firstPage = (0..<16).map { try? controller.objectID(at: ResultsIndexPath(item: $0, section: 0)) }
        let finished = await load(controller)
        #expect(finished.calls == 1 && finished.error == nil)
        #expect(controller.isComplete && !controller.isLoadingInBackground)
        #expect(controller.fetchedObjectCount == count)
        #expect(controller.snapshot == (try shop.fullSnapshot()))
        // The first page is a prefix of the full list: nothing shown moved, no change set.
        #expect((0..<16).map { try? controller.objectID(at: ResultsIndexPath(item: $0, section: 0)) } == firstPage)
        #expect(reloads == 0)
        // Once complete, another call finishes at once.
        var again = 0
        #expect(controller.completeFetchInBackground { _ in again += 1 })
        #expect(again == 1)
    }

    /// Saves while the reader works are held, then applied against the full list as one change set.
    @Test(arguments: StoreEngine.allCases, [2, 3, 4] as [UInt64])
    func changesDuringTheLoadAreAppliedAfterIt(_ engine: StoreEngine, seed: UInt64) async throws {
        let shop = try Shop(engine, dir), view = shop.view
        try shop.fill(400, seed: seed)
        var rng = SeededRandom(seed: seed)
        let controller = ResultsController(fetchRequest: Self.request, context: view)
        var sets = 0
        controller.onChangeSet = { _ in sets += 1 }
        try controller.performFetch(firstPage: 20)
        let finished = Finished()
        #expect(controller.completeFetchInBackground { finished.error = $0; finished.calls += 1 })
        // Before the main queue turns (the reader's index cannot land yet): move, hide, insert, delete.
        let all = try view.fetch(FetchRequest(entityName: "Product"))
        for _ in 0..<15 {
            let o = all[Int.random(in: 0..<all.count, using: &rng)]
            if o.isDeleted { continue }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: try o.setValue(.double(Double(Int.random(in: 0..<60, using: &rng))), forKey: "price")
            case 1: try o.setValue(.bool(Bool.random(using: &rng)), forKey: "active")
            case 2: _ = try view.insert("Product", values: ["name": .string("new\(Int.random(in: 0..<1000, using: &rng))"),
                                                          "price": .double(Double(Int.random(in: 0..<60, using: &rng))), "active": .bool(true)])
            default: try view.delete(o)
            }
        }
        try view.save()
        #expect(controller.isLoadingInBackground, "the change was heard while loading")
        _ = await waitUntil(timeout: 60) { finished.calls > 0 }
        #expect(finished.error == nil)
        #expect(controller.isComplete)
        #expect(controller.snapshot == (try shop.fullSnapshot()), "\(engine) seed \(seed)")
        #expect(sets >= 1, "the held changes were delivered")
    }

    /// A refetch here meanwhile (a reload, or reading past the first page) makes the
    /// reader's index stale: it is dropped, and the list stays the refetched one.
    @Test(arguments: StoreEngine.allCases) func aRefetchMeanwhileWins(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir), view = shop.view
        try shop.fill(200, seed: 5)
        let controller = ResultsController(fetchRequest: Self.request, context: view)
        try controller.performFetch(firstPage: 8)
        let finished = Finished()
        #expect(controller.completeFetchInBackground { finished.error = $0; finished.calls += 1 })
        try controller.completeFetch()
        #expect(controller.isComplete)
        let p = try #require(try view.fetch(FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"))).first)
        try p.setValue(.double(1000), forKey: "price")
        try view.save()
        _ = await waitUntil(timeout: 60) { finished.calls > 0 }
        #expect(controller.snapshot == (try shop.fullSnapshot()))
        #expect(controller.snapshot.sections.first?.objectIDs.first == p.objectID)
    }

    /// Starts the load and pauses it before it can read (its reader is held until then);
    /// returns once it has stopped.
    static func pausedLoad(_ controller: ResultsController) async throws -> Finished {
        let gate = DispatchSemaphore(value: 0)
        let reader = try #require(controller.privateReader())
        reader.perform({ _ in gate.wait() }, completion: { _ in })
        let finished = Finished()
        #expect(controller.completeFetchInBackground { finished.error = $0; finished.calls += 1 })
        controller.pauseBackgroundLoad()
        gate.signal()
        #expect(await waitUntil(timeout: 60) { !controller.isLoadingInBackground })
        return finished
    }

    /// Work the user waits for pauses the load (`pauseBackgroundLoad`): it stops without
    /// failing, keeps what it heard and who waits for it, and started again ends with the
    /// full list, the change heard while paused included.
    @Test(arguments: StoreEngine.allCases) func aPausedLoadResumesWithWhatItHeard(_ engine: StoreEngine) async throws {
        let shop = try Shop(engine, dir), view = shop.view
        try shop.fill(300, seed: 8)
        let controller = ResultsController(fetchRequest: Self.request, context: view)
        try controller.performFetch(firstPage: 10)
        let finished = try await Self.pausedLoad(controller)
        #expect(!controller.isComplete && finished.calls == 0, "paused: the first page stays, nobody is told it failed")

        let p = try #require(try view.fetch(FetchRequest(entityName: "Product", predicate: try QueryPredicate.parse("active == true"))).last)
        try p.setValue(.double(1000), forKey: "price")
        try view.save()
        #expect(!controller.isComplete, "a change while paused is kept for the load, not a refetch")

        var resumed = 0
        #expect(controller.completeFetchInBackground { _ in resumed += 1 })
        #expect(await waitUntil(timeout: 60) { finished.calls > 0 && resumed > 0 })
        #expect(finished.calls == 1 && finished.error == nil && resumed == 1)
        #expect(controller.isComplete)
        #expect(controller.snapshot == (try shop.fullSnapshot()), "\(engine)")
        #expect(controller.snapshot.sections.first?.objectIDs.first == p.objectID)
    }

    /// A paused load is over once the list is read whole here: whoever waited is told (no error).
    @Test func aPausedLoadEndsWhenTheListIsRefetched() async throws {
        let shop = try Shop(.sqlite, dir)
        try shop.fill(200, seed: 9)
        let controller = ResultsController(fetchRequest: Self.request, context: shop.view)
        try controller.performFetch(firstPage: 10)
        let finished = try await Self.pausedLoad(controller)
        try controller.completeFetch()
        #expect(finished.calls == 1 && finished.error == nil)
        #expect(controller.snapshot == (try shop.fullSnapshot()))
        // Pausing with no load running does nothing.
        controller.pauseBackgroundLoad()
        #expect(controller.completeFetchInBackground { _ in finished.calls += 1 } && finished.calls == 2)
    }

    /// A grouped first page comes with every section counted (one scan, no sort of the rows):
    /// names and sizes as the full list's, both orders, NULLs, and texts Swift would call
    /// equal but the engines' binary order keeps apart (composed and decomposed é).
    @Test(arguments: StoreEngine.allCases, [true, false])
    func aGroupedFirstPageHasEverySectionCounted(_ engine: StoreEngine, ascending: Bool) async throws {
        let shop = try Shop(engine, dir), view = shop.view
        var rng = SeededRandom(seed: ascending ? 6 : 7)
        let countries: [Value] = [.null, .string("FR"), .string("é"), .string("e\u{301}"), .string("DE"), .string("")]
        for i in 0..<300 {
            _ = try view.insert("Provider", values: ["name": .string("p\(Int.random(in: 0..<9, using: &rng))-\(i)"),
                                                     "country": countries[Int.random(in: 0..<countries.count, using: &rng)]])
        }
        try view.save()
        let request = FetchRequest(entityName: "Provider", sortDescriptors: [QuerySortDescriptor("country", ascending: ascending), QuerySortDescriptor("name")])
        let full = ResultsController(fetchRequest: request, context: view, sectionKeyPath: "country")
        try full.performFetch()
        let expected = full.sectionNamesAndCounts
        #expect(expected.count == 5, "composed and decomposed é are neighbours of one name: one section")
        let all = full.snapshot.sections.flatMap(\.objectIDs)
        // The page reads only the sections it reaches (the first, or several, or all but the last).
        for size in [10, 60, 130, 299] {
            let page = ResultsController(fetchRequest: request, context: view, sectionKeyPath: "country")
            try page.performFetch(firstPage: size)
            #expect(!page.isComplete && page.fetchedObjectCount == 300)
            #expect(page.sectionNamesAndCounts.map(\.name) == expected.map(\.name))
            #expect(page.sectionNamesAndCounts.map(\.count) == expected.map(\.count))
            #expect(Array(page.index.entries) == Array(all.prefix(size)), "\(engine) page of \(size): the full list's first rows")
            let finished = await load(page)
            #expect(finished.error == nil && page.isComplete)
            #expect(page.snapshot == full.snapshot)
        }
    }
}

/// The background-load tests' rows (`n` products, about half active) and the list a full fetch gives.
extension ResultsControllerTests.Shop {
    func fill(_ n: Int, seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        for i in 0..<n {
            _ = try view.insert("Product", values: ["name": .string("p\(i)"), "price": .double(Double(Int.random(in: 0..<50, using: &rng))),
                                                    "stock": .integer(Int64(i % 7)), "active": .bool(Bool.random(using: &rng))])
        }
        try view.save()
    }

    func fullSnapshot() throws -> ResultsSnapshot {
        let full = ResultsController(fetchRequest: ResultsControllerBackgroundLoadTests.request, context: view)
        try full.performFetch()
        return full.snapshot
    }
}
