import Foundation

/// The benchmarks, their shared fixtures (generated rows, a populated store) and
/// the child-process workloads used for peak memory.
final class Suite {
    static let runs = 3
    static let names = ["insert-100k", "fetch-100k", "insert-100k-peak-rss", "fetch-100k-peak-rss"]

    let directory: URL
    private var cachedRows: [RecordWorkload.Row]?
    private var populated: URL?
    private var counter = 0

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var rows: [RecordWorkload.Row] {
        if let cachedRows { return cachedRows }
        let r = RecordWorkload.rows()
        cachedRows = r
        return r
    }

    /// A fresh file path in the temp directory.
    func freshPath(_ stem: String) -> URL {
        counter += 1
        return directory.appendingPathComponent("\(stem)-\(counter).sqlite")
    }

    /// A store holding the 100k records (made once with Vellum, shared by both fetch sides).
    func populatedStore() throws -> URL {
        if let populated { return populated }
        let url = directory.appendingPathComponent("fetch.vellum")
        _ = try RecordWorkload.vellumInsert(at: url, rows: rows)
        populated = url
        return url
    }

    var benchmarks: [Benchmark] {
        [
            Benchmark(name: "insert-100k", unit: "ms") { [self] in
                let rows = self.rows
                var best = Double.infinity, bestRaw = Double.infinity
                for _ in 0..<Self.runs {
                    // Interleaved so both sides see the same machine load.
                    best = min(best, try RecordWorkload.vellumInsert(at: freshPath("vellum-insert"), rows: rows))
                    bestRaw = min(bestRaw, try RecordWorkload.rawInsert(at: freshPath("raw-insert").path, rows: rows))
                }
                return Measurement(value: best, baseline: bestRaw)
            },
            Benchmark(name: "fetch-100k", unit: "ms") { [self] in
                let url = try populatedStore()
                _ = try RecordWorkload.rawFetch(at: url.path)  // warm the page cache
                var best = Double.infinity, bestRaw = Double.infinity
                for _ in 0..<Self.runs {
                    let (ms, sum) = try RecordWorkload.vellumFetch(at: url)
                    let (rawMs, rawSum) = try RecordWorkload.rawFetch(at: url.path)
                    if sum != rawSum { throw BenchError("fetch checksums differ: vellum \(sum), raw \(rawSum)") }
                    best = min(best, ms)
                    bestRaw = min(bestRaw, rawMs)
                }
                return Measurement(value: best, baseline: bestRaw)
            },
            Benchmark(name: "insert-100k-peak-rss", unit: "MB") { [self] in
                let kb = try Memory.peakResidentKBOfChild(["--child", "insert", directory.path])
                let rawKB = try Memory.peakResidentKBOfChild(["--child", "insert-raw", directory.path])
                return Measurement(value: Double(kb) / 1024, baseline: Double(rawKB) / 1024)
            },
            Benchmark(name: "fetch-100k-peak-rss", unit: "MB") { [self] in
                _ = try populatedStore()
                let kb = try Memory.peakResidentKBOfChild(["--child", "fetch", directory.path])
                let rawKB = try Memory.peakResidentKBOfChild(["--child", "fetch-raw", directory.path])
                return Measurement(value: Double(kb) / 1024, baseline: Double(rawKB) / 1024)
            },
        ]
    }

    /// Runs one workload once in this (child) process and prints VmHWM in kB.
    static func runChild(_ workload: String, directory: URL) throws {
        let id = UUID().uuidString
        switch workload {
        case "insert":
            _ = try RecordWorkload.vellumInsert(at: directory.appendingPathComponent("child-\(id).vellum"), rows: RecordWorkload.rows())
        case "insert-raw":
            _ = try RecordWorkload.rawInsert(at: directory.appendingPathComponent("child-\(id).sqlite").path, rows: RecordWorkload.rows())
        case "fetch":
            _ = try RecordWorkload.vellumFetch(at: directory.appendingPathComponent("fetch.vellum"))
        case "fetch-raw":
            _ = try RecordWorkload.rawFetch(at: directory.appendingPathComponent("fetch.vellum").path)
        default:
            throw BenchError("unknown child workload '\(workload)'")
        }
        guard let kb = Memory.peakResidentKB() else { throw BenchError("cannot read VmHWM from /proc/self/status") }
        print(kb)
    }
}
