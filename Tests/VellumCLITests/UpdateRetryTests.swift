import Foundation
import Testing
import VellumStore
@testable import vellum

/// Issue #11, torture run: `vellum update` re-reads and re-applies after a
/// version conflict (the command is declarative), a bounded number of times.
@Suite("vellum update retries a version conflict", .serialized)
struct UpdateRetryTests {
    /// Batches of four `vellum update` processes setting the same rows at once
    /// (without retries about 45% of them failed with a version conflict).
    @Test func updateRetriesAVersionConflictUnderConcurrentWriters() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        var runs: [ChildProcess] = []
        for batch in 0..<4 {
            let started = try (0..<4).map { n in
                try ChildProcess(["update", path, "Row", "--where", "owner == 'shared'", "value=\(batch * 10 + n + 1)"])
            }
            for r in started { #expect(await r.waitForExit(timeout: 120), "update still running") }
            runs += started
        }
        for (i, r) in runs.enumerated() {
            #expect(r.process.terminationStatus == 0, "run \(i): \(r.stderr)")
            #expect(r.lines == ["updated 4 objects"], "run \(i): \(r.lines)")
        }
        // Each batch's last save wins whole: the four rows hold one run's value.
        let values = Set(try storeRows(path).values.filter { $0.owner == "shared" }.map(\.value))
        #expect(values.count == 1 && (31...34).contains(values.first ?? -1), "\(values)")
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
