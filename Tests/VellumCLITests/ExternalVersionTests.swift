import Foundation
import Testing
import VellumStore

/// Issue #11, high item 4: writers outside Vellum that do not bump `_version`
/// take part in optimistic locking (the history triggers bump it for them).
@MainActor
@Suite("External writers and optimistic locking", .serialized)
struct ExternalVersionTests {
    /// Vellum writer processes and `sqlite3` shells that increment the shared counters
    /// without touching `_version`: every increment of both sides must be in the store.
    @Test func externalWritersThatDoNotBumpVersionLoseNoIncrements() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        let perShell = 400
        func script(_ shell: Int) -> String {
            var s = ".timeout 10000\n"
            for i in 0..<perShell {
                s += "UPDATE \"Row\" SET value = value + 1 WHERE owner = 'shared' AND key = \((i + shell) % 4);\n"
            }
            return s
        }
        let writers = try (1...2).map { n in
            try ChildProcess(["_stress-writer", path, "--writer", "\(n)", "--saves", "600", "--seed", "\(40 + n)"])
        }
        let scripts = [script(0), script(1)]
        let running = scripts.map { s in Task.detached { try runSQLite(path, s) } }
        var shells: [(status: Int32, out: String, err: String)] = []
        for r in running { shells.append(try await r.value) }
        for w in writers { #expect(await w.waitForExit(timeout: 300), "writer still running") }
        for shell in shells { #expect(shell.status == 0 && shell.err.isEmpty, "\(shell.err)") }
        var replay = Replay()
        for (i, w) in writers.enumerated() {
            #expect(w.process.terminationStatus == 0, "writer \(i + 1): \(w.stderr)")
            try replay.apply(w.lines, owner: "w\(i + 1)")
        }
        let counters = try storeRows(path).values.filter { $0.owner == "shared" }
        let stored = counters.map(\.value).reduce(0, +)
        let expected = replay.increments.values.reduce(0, +) + Int64(2 * perShell)
        #expect(stored == expected, "\(expected - stored) of \(expected) increments lost")
    }
}
