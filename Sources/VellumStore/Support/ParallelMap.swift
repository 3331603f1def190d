import Dispatch
import Foundation

/// Maps `0..<count` on several threads, for work that is large, independent per element
/// and read-only on what it shares (decoding, validating and hashing a large model).
enum ParallelMap {
    /// Elements per worker below which one thread does it all: a thread hand-off costs
    /// more than a small model's whole decode.
    static let elementsPerWorker = 32

    /// Workers worth starting for `count` elements: the cores, at most one per
    /// `elementsPerWorker` elements (0 or 1 means this thread alone).
    static func workers(for count: Int) -> Int {
        count < 2 * elementsPerWorker ? 1 : min(cores, count / elementsPerWorker)
    }

    /// Asked once: Foundation reads the affinity mask and the cgroup's CPU limit each time.
    static let cores = ProcessInfo.processInfo.activeProcessorCount

    /// `body(i)` for every `i` in `0..<count`, in order. Worker `w` takes the indices
    /// `w, w + workers, …` (neighbouring elements are often alike in size). The error of the
    /// lowest failing index is thrown, whatever the scheduling, and the others are dropped.
    /// O(count) calls of `body`; with `workers` ≤ 1 they run on this thread.
    static func map<T: Sendable, E: Error>(count: Int, workers: Int,
                                           _ body: (Int) throws(E) -> T) throws(E) -> [T] {
        try map(count: count, workers: workers, state: {}) { (_: inout Void, i: Int) throws(E) -> T in try body(i) }
    }

    /// `map` with a value each worker makes once (`state()`) and passes to every call it
    /// makes: buffers reused across elements.
    static func map<T: Sendable, S, E: Error>(count: Int, workers: Int, state: () -> S,
                                              _ body: (inout S, Int) throws(E) -> T) throws(E) -> [T] {
        guard workers > 1, count > 1 else {
            var scratch = state()
            var out: [T] = []
            out.reserveCapacity(count)
            for i in 0..<count { out.append(try body(&scratch, i)) }
            return out
        }
        let results = Locked<[Result<T, E>?]>(Array(repeating: nil, count: count))
        withoutActuallyEscaping(body) { body in
            withoutActuallyEscaping(state) { state in
                let shared = UncheckedSendable((state, body))
                DispatchQueue.concurrentPerform(iterations: workers) { worker in
                    var scratch = shared.value.0()
                    var mine: [(Int, Result<T, E>)] = []
                    for i in stride(from: worker, to: count, by: workers) {
                        do throws(E) { mine.append((i, .success(try shared.value.1(&scratch, i)))) } catch { mine.append((i, .failure(error))) }
                    }
                    results.withLock { all in for (i, r) in mine { all[i] = r } }
                }
            }
        }
        return try results.withLock { all throws(E) -> [T] in
            var out: [T] = []
            out.reserveCapacity(count)
            for r in all { out.append(try r!.get()) }
            return out
        }
    }
}

/// Hands a closure to the workers of `ParallelMap.map`, which call it concurrently: the
/// callers' closures only read what they capture (checked by the tests under TSan).
private struct UncheckedSendable<Wrapped>: @unchecked Sendable {
    let value: Wrapped
    init(_ value: Wrapped) { self.value = value }
}
