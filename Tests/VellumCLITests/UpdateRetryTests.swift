import Foundation
import Testing
import VellumStore
@testable import vellum

/// Issue #11, torture run: `vellum update` re-reads and re-applies after a
/// version conflict (the command is declarative), a bounded number of times.
@Suite("vellum update retries a version conflict", .serialized)
struct UpdateRetryTests {
    @Test func updateRetriesAVersionConflictUnderConcurrentWriters() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        // Another program keeps changing the shared rows (bumping their versions).
        var script = ".timeout 10000\n"
        for _ in 0..<4_000 { script += "UPDATE \"Row\" SET value = value + 1, \"_version\" = \"_version\" + 1 WHERE owner = 'shared';\n" }
        let shell = Task.detached { try runSQLite(path, script) }
        var runs: [ChildProcess] = []
        for n in 0..<12 {
            runs.append(try ChildProcess(["update", path, "Row", "--where", "owner == 'shared'", "key=\(n % 4)"]))
            if runs.count % 3 == 0 { for r in runs.suffix(3) { _ = await r.waitForExit(timeout: 120) } }
        }
        for r in runs { #expect(await r.waitForExit(timeout: 120), "update still running") }
        let sql = try await shell.value
        #expect(sql.status == 0, "\(sql.err)")
        for (i, r) in runs.enumerated() {
            #expect(r.process.terminationStatus == 0, "run \(i): \(r.stderr)")
            #expect(r.lines == ["updated 4 objects"], "run \(i): \(r.lines)")
        }
    }

    @Test func updateFailsWithAClearConflictMessageAfterTheBound() async throws {
        let attempts = Counter()
        do {
            _ = try await ConflictRetry.run(attempts: 3) { () async throws -> Int in
                attempts.add()
                throw StoreError.conflicts([])
            }
            Issue.record("no error after the bound")
        } catch let error as CLIError {
            #expect(attempts.value == 3)
            #expect(error.description.contains("kept changing"), "\(error)")
            #expect(error.description.contains("3 attempts"), "\(error)")
        }
        // Other errors are not retried.
        let once = Counter()
        await #expect(throws: StoreError.self) {
            _ = try await ConflictRetry.run(attempts: 3) { () async throws -> Int in once.add(); throw StoreError.readOnly(path: "x") }
        }
        #expect(once.value == 1)
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
