import Foundation
import Testing
@testable import VellumStore

/// The test harness itself: a cluster outlives no owner, and a machine without
/// the server fails the PostgreSQL tests instead of skipping them.
@Suite struct PostgreSQLClusterTests {
    @Test func aClusterIsStoppedAndRemovedWhenItsOwnerIsKilled() async throws {
        let owner = Process()
        owner.executableURL = URL(fileURLWithPath: "/bin/sleep")
        owner.arguments = ["600"]
        try owner.run()
        let cluster = try PostgreSQLCluster(owner: owner.processIdentifier)
        #expect(try PGConnection(url: cluster.url()).scalar("SELECT 1") == .integer(1))
        #expect(FileManager.default.fileExists(atPath: cluster.directory))
        kill(owner.processIdentifier, SIGKILL)
        owner.waitUntilExit()
        // The watchdog polls once a second, then stops the server and removes the directory.
        let deadline = Date().addingTimeInterval(120)
        while FileManager.default.fileExists(atPath: cluster.directory) && Date() < deadline {
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        #expect(!FileManager.default.fileExists(atPath: cluster.directory), "the watchdog removed \(cluster.directory)")
        #expect(throws: StoreError.self) { try PGConnection(url: cluster.url()) }
    }

    @Test func missingServerBinariesAreAnErrorNamingWhatToInstall() throws {
        let empty = TempDir()
        #expect { try PostgreSQLCluster.serverBinaries(override: nil, root: empty.url.path) } throws: { error in
            "\(error)".contains("server binaries (initdb, pg_ctl) are missing") && "\(error)".contains("apt-get install postgresql")
        }
    }

    @Test func theSharedClusterIsOneServerForTheWholeProcess() throws {
        let a = try PostgreSQLCluster.shared(), b = try PostgreSQLCluster.shared()
        #expect(a === b)
        #expect(a.directory.contains("vellum-pg-\(getpid())-"))
    }
}
