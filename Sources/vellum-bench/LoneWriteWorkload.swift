import Foundation
import VellumStore

/// `queue-lone-write-p50` / `-p99`: the latency of one write-queue block on an idle
/// queue (group commit must not make a lone write wait for company).
enum LoneWriteWorkload {
    /// Milliseconds from `enqueue` to its completion for one-object blocks sent one at
    /// a time (each waited for before the next). Store and container creation untimed.
    static func latencies(at url: URL, rows: [RecordWorkload.Row]) throws -> [Double] {
        let container = try PersistentContainer(model: try RecordWorkload.model(), storeURL: url)
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<(any Error)?>(nil)
        var latencies: [Double] = []
        latencies.reserveCapacity(rows.count)
        for r in rows {
            let v = LiveWorkload.values(r)
            let start = Clocks.monotonicNanos()
            container.enqueue({ ctx in _ = try ctx.insert("Record", values: v) }, completion: { result in
                if case .failure(let e) = result { failure.withLock { $0 = e } }
                done.signal()
            })
            done.wait()
            latencies.append(Double(Clocks.monotonicNanos() - start) / 1e6)
            if let e = failure.value { throw e }
        }
        return latencies
    }

    /// Milliseconds of each raw single-row transaction (`LiveWorkload.RawRowWriter`).
    static func rawLatencies(at path: String, rows: [RecordWorkload.Row]) throws -> [Double] {
        let writer = try LiveWorkload.RawRowWriter(path: path)
        var latencies: [Double] = []
        latencies.reserveCapacity(rows.count)
        for r in rows {
            let start = Clocks.monotonicNanos()
            try writer.write(r)
            latencies.append(Double(Clocks.monotonicNanos() - start) / 1e6)
        }
        return latencies
    }
}
