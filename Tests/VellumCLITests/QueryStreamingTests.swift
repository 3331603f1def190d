import Foundation
import Testing
import VellumStore

/// Issue 11, torture run, "`vellum query` streams": rows flow out as they are
/// read (memory flat, first byte at once); table cells are capped and control
/// characters escaped.
@Suite("vellum query streams", .serialized)
struct QueryStreamingTests {
    let dir = TempDir()

    /// A store of `Item(name, n)` with `rows` rows, filled by the sqlite3 shell.
    func store(_ name: String, rows: Int) throws -> String {
        let path = dir.path(name)
        let model = try ModelBuilder().entity("Item") { $0.attribute("name", .string); $0.attribute("n", .integer64) }.build()
        _ = try PersistentStore(url: URL(fileURLWithPath: path), model: model)
        let fill = """
            WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(rows))
            INSERT INTO Item (_entity, name, n) SELECT 'Item', 'item number ' || i, i FROM c;
            PRAGMA wal_checkpoint(TRUNCATE);
            """
        #expect(try runSQLite(path, fill).status == 0)
        return path
    }

    /// Peak resident set size in KiB of `vellum ARGS > /dev/null`.
    func peakKiB(_ arguments: [String]) throws -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", VellumBinary.url.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        let err = Pipe()
        process.standardError = err
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        return Int(text.split(separator: "\n").last.map(String.init) ?? "") ?? -1
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/time")))
    func queryMemoryStaysFlat() throws {
        let small = try store("small.vellum", rows: 10_000)
        let large = try store("large.vellum", rows: 200_000)
        for format in ["csv", "json", "table"] {
            let a = try peakKiB(["query", small, "Item", "--format", format])
            let b = try peakKiB(["query", large, "Item", "--format", format])
            // Twenty times the rows: the peak may not grow by more than 25 MiB.
            #expect(b - a < 25 * 1024, "\(format): \(a) KiB for 10k rows, \(b) KiB for 200k rows")
        }
    }

    /// Bytes `pid` has read through read(2)/pread(2) so far (SQLite reads its pages so).
    func bytesRead(_ pid: Int32) -> Int? {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8),
              let line = io.split(separator: "\n").first(where: { $0.hasPrefix("rchar:") }) else { return nil }
        return Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces))
    }

    /// Starts `vellum ARGS` with a stdout nobody reads after its first bytes, waits until the
    /// process is stuck on the full pipe, and returns how much of its input it had read by then.
    func bytesReadBeforeBlocking(_ arguments: [String], blockingSIGTERM: Bool = false,
                                 then: (Process) async -> Void = { _ in }) async throws -> Int {
        let process = Process()
        process.executableURL = VellumBinary.url
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try Self.spawn(process, blockingSIGTERM: blockingSIGTERM)
        defer { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        // The first bytes of output: the query has begun to print.
        let first = await withCheckedContinuation { (done: CheckedContinuation<Data, Never>) in
            DispatchQueue.global().async { done.resume(returning: out.fileHandleForReading.availableData) }
        }
        #expect(!first.isEmpty)
        // Unread, the pipe fills and the writer blocks; its read count then stops moving.
        var last = -1
        for _ in 0..<600 {
            try await Task.sleep(nanoseconds: 500_000_000)
            guard process.isRunning, let now = bytesRead(process.processIdentifier) else { break }
            if now == last { await then(process); return now }
            last = now
        }
        Issue.record("vellum \(arguments) never blocked on its unread output")
        return last
    }

    /// Runs `process`; with `blockingSIGTERM`, from a thread that blocks SIGTERM, so the child
    /// inherits that mask. Synchronous, so the mask is restored on the same thread.
    static func spawn(_ process: Process, blockingSIGTERM: Bool) throws {
        guard blockingSIGTERM else { return try process.run() }
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
    }

    /// Streaming, judged without a clock: when the first rows are out and the pipe is full,
    /// a streaming query has read a small part of the store. The control, sorted on an
    /// unindexed key, must read every row before its first one, so the measure can fail.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/io")))
    func queryPrintsTheFirstRowsAtOnce() async throws {
        let path = try store("large.vellum", rows: 200_000)
        let size = try #require(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        for format in ["csv", "json", "table"] {
            let streamed = try await bytesReadBeforeBlocking(["query", path, "Item", "--format", format])
            #expect(streamed < size / 10, "\(format): \(streamed) bytes of a \(size)-byte store read before output blocked")
        }
        let sorted = try await bytesReadBeforeBlocking(["query", path, "Item", "--format", "csv", "--sort", "name"])
        #expect(sorted > size / 10, "the sorted control read only \(sorted) of \(size) bytes")
    }

    /// Started with SIGTERM blocked (as this test runner's threads start children, or a
    /// service manager might), a query stuck on a full pipe still stops on `kill`.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/io")))
    func queryBlockedOnAFullPipeStopsOnSIGTERM() async throws {
        let path = try store("term.vellum", rows: 50_000)
        _ = try await bytesReadBeforeBlocking(["query", path, "Item", "--format", "csv"], blockingSIGTERM: true) { process in
            kill(process.processIdentifier, SIGTERM)
            var waited = 0
            while process.isRunning && waited < 100 { try? await Task.sleep(nanoseconds: 100_000_000); waited += 1 }
            #expect(!process.isRunning, "vellum query ignored SIGTERM")
            if !process.isRunning { #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGTERM) }
        }
    }

    @Test func tableCapsCellsAndEscapesControlCharacters() throws {
        let path = try store("s.vellum", rows: 3)
        let update = """
            UPDATE Item SET name = 'red' || char(27) || '[31m' || char(7) || char(127) || char(155) || 'x' || char(9) || 'y' WHERE n = 1;
            UPDATE Item SET name = replace(hex(zeroblob(500000)), '0', 'ab') WHERE n = 2;
            """
        #expect(try runSQLite(path, update).status == 0)
        let r = try VellumBinary.run(["query", path, "Item", "--sort", "n"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) })
        #expect(r.stdout.contains("red\\e[31m\\u{7}\\u{7F}\\u{9B}x\\ty"), "\(r.stdout)")
        #expect(r.stdout.utf8.count < 2000, "\(r.stdout.utf8.count) bytes")
        #expect(r.stdout.contains("ababa…"))
        #expect(r.stdout.contains("/Item/p1  "), "IDs are never cut")
        #expect(r.stdout.hasSuffix("(3 objects)\n"))
        let narrow = try VellumBinary.run(["query", path, "Item", "--sort", "n", "--max-width", "10"])
        #expect(narrow.stdout.contains("ababababa…") && !narrow.stdout.contains("abababababa"), "\(narrow.stdout)")
        let full = try VellumBinary.run(["query", path, "Item", "--sort", "n", "--full"])
        #expect(full.stdout.contains(String(repeating: "ab", count: 500_000)))
        // CSV carries the value exactly.
        let csv = try VellumBinary.run(["query", path, "Item", "--sort", "n", "--format", "csv"])
        #expect(csv.stdout.contains("red\u{1B}[31m\u{7}\u{7F}\u{9B}x\ty"))
    }

    @Test func queryOutputFileNeverReplacesSilently() throws {
        let path = try store("s.vellum", rows: 3)
        let out = dir.path("out.csv")
        let new = try VellumBinary.run(["query", path, "Item", "--format", "csv", "--output", out])
        #expect(new.status == 0 && new.stderr.contains("wrote 3 objects to \(out)"), "\(new.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("_id,name,n\r\n"))
        try "old\n".write(toFile: out, atomically: false, encoding: .utf8)
        let refused = try VellumBinary.run(["query", path, "Item", "--output", out])
        #expect(refused.status == 1 && refused.stderr.contains("already exists; refusing to replace it (--force replaces it)"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8) == "old\n")
        #expect(try VellumBinary.run(["query", path, "Item", "--format", "json", "--output", out, "--force"]).status == 0)
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("[\n"))
        // Never the store itself or another database, even with --force.
        let other = try store("other.vellum", rows: 1)
        for (target, reason) in [(path, "is the open store"), (other, "is a database")] {
            let r = try VellumBinary.run(["query", path, "Item", "--output", target, "--force"])
            #expect(r.status == 1 && r.stderr.contains(reason), "\(r.stderr)")
        }
        #expect(try sqliteScalar(path, "SELECT count(*) FROM Item") == "3")
        #expect(try sqliteScalar(other, "SELECT count(*) FROM Item") == "1")
    }
}
