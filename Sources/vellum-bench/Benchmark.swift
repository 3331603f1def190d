import Foundation

/// One benchmark result: Vellum's value and, when there is one, the raw-SQLite
/// baseline measured in the same run. `ratio` = value / baseline.
struct Measurement: Sendable {
    var value: Double
    var baseline: Double?
    var ratio: Double? {
        guard let baseline, baseline > 0 else { return nil }
        return value / baseline
    }
}

/// A named benchmark producing one measurement in `unit`.
struct Benchmark {
    let name: String
    let unit: String
    let run: @MainActor () async throws -> Measurement
}

/// A finished row of the report.
struct Result: Sendable {
    let name: String
    let unit: String
    let measurement: Measurement
    /// Why the benchmark did not run (`Skipped`): printed instead of its figures.
    var skipped: String? = nil
}

enum Timing {
    /// Milliseconds taken by `body`.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let d = try clock.measure(body)
        return Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    /// The best (lowest) of `runs` values returned by `body` (each already a time in ms).
    static func best(of runs: Int, _ body: () throws -> Double) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<runs { best = min(best, try body()) }
        return best
    }
}

/// Peak resident memory.
///
/// VmHWM in /proc/self/status is a process-wide high-water mark that never goes
/// down, so measuring several workloads in one process would only ever show the
/// largest. Each peak-memory benchmark therefore re-executes this binary as
/// `vellum-bench --child WORKLOAD ...`; the child runs that one workload once and
/// prints its VmHWM (kB) on stdout. The baseline is the same measurement for the
/// raw-SQLite workload, so both include the Swift runtime and the generated rows.
enum Memory {
    /// VmHWM of this process in kB, or nil when /proc is unavailable.
    static func peakResidentKB() -> Int? {
        // procfs files report size 0, so read to EOF rather than by size.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/status") else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.dropFirst("VmHWM:".count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Runs this executable with `arguments` and returns the peak RSS (kB) it prints.
    static func peakResidentKBOfChild(_ arguments: [String]) throws -> Int {
        let text = try ChildProcess.start(arguments).finish()
        guard let kb = Int(text) else { throw BenchError("child \(arguments.joined(separator: " ")) printed '\(text)'") }
        return kb
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}


/// This executable re-run as `vellum-bench --child …`, its stdout captured.
struct ChildProcess {
    let process: Process
    let pipe: Pipe
    let arguments: [String]

    static func start(_ arguments: [String]) throws -> ChildProcess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        return ChildProcess(process: process, pipe: pipe, arguments: arguments)
    }

    /// Waits for the child; returns its trimmed stdout or throws when it failed.
    func finish() throws -> String {
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard process.terminationStatus == 0 else {
            throw BenchError("child \(arguments.joined(separator: " ")) failed (status \(process.terminationStatus), output '\(text)')")
        }
        return text
    }
}
