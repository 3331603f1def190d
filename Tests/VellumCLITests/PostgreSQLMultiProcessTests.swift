import Foundation
import Testing
import VellumStore
@testable import vellum

/// Writer processes standing for several machines on one PostgreSQL store (each
/// with its own connections over TCP), and an observer container in this process.
@MainActor
@Suite("MultiProcess over PostgreSQL", .serialized)
struct PostgreSQLMultiProcessTests {
    @Test func fourWriterProcessesNothingLostAndTheObserverEndsEqual() async throws {
        let url = try PostgreSQLCluster.shared().makeSchema("rows")
        try CLIFixtures.makeRowStore(at: url)
        let observer = try ViewObserver(path: url)
        let saves = 300
        let writers = try (1...4).map {
            try ChildProcess(["_stress-writer", url, "--writer", "\($0)", "--saves", "\(saves)", "--seed", "\(300 + $0)"])
        }
        for w in writers { #expect(await w.waitForExit(timeout: 600), "writer still running") }
        var replay = Replay()
        for (i, w) in writers.enumerated() {
            #expect(w.process.terminationStatus == 0, "writer \(i + 1): \(w.stderr)")
            #expect(w.lineCount == saves, "writer \(i + 1) reported \(w.lineCount) saves")
            try replay.apply(w.lines, owner: "w\(i + 1)")
        }
        try MultiProcessTests().check(path: url, replay: replay, writers: [1, 2, 3, 4])
        #expect(try await observer.settle(path: url, timeout: 60), "the observer's view differs from the store")
        #expect(observer.failures.isEmpty, "\(observer.failures)")
    }
}
