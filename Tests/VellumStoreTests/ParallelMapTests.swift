import Foundation
import Testing
@testable import VellumStore

/// `ParallelMap` splits large model work across threads: results in order, and the error
/// of the lowest failing index whatever the scheduling.
@Suite struct ParallelMapTests {
    struct Failure: Error, Equatable { let index: Int }

    @Test func resultsComeBackInIndexOrderForAnyWorkerCount() {
        for count in [0, 1, 2, 100] {
            for workers in [0, 1, 2, 3, 7] {
                let squares = ParallelMap.map(count: count, workers: workers) { $0 * $0 }
                #expect(squares == (0..<count).map { $0 * $0 }, "count \(count), \(workers) workers")
            }
        }
    }

    @Test func theLowestFailingIndexIsTheErrorThrown() {
        for workers in [1, 2, 3, 7] {
            for _ in 0..<20 {
                #expect(throws: Failure(index: 13), "\(workers) workers") {
                    _ = try ParallelMap.map(count: 100, workers: workers) { i throws(Failure) -> Int in
                        if i == 13 || i == 77 || i == 98 { throw Failure(index: i) }
                        return i
                    }
                }
            }
        }
    }

    @Test func eachWorkerMakesItsStateOnceAndReusesIt() {
        let made = Locked(0)
        let calls = ParallelMap.map(count: 90, workers: 3, state: { () -> Int in made.withLock { $0 += 1 }; return 0 }) { uses, _ in
            uses += 1
            return uses
        }
        #expect(made.withLock { $0 } == 3)
        // Worker w takes w, w + 3, …: its k-th element is its k-th use of the state.
        #expect(calls == (0..<90).map { $0 / 3 + 1 })
    }

    @Test func workersGrowWithTheElementCountUpToTheCores() {
        #expect(ParallelMap.workers(for: 10) <= 1)
        #expect(ParallelMap.workers(for: 10_000) == ProcessInfo.processInfo.activeProcessorCount)
    }
}
