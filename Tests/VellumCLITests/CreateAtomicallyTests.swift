import Foundation
import Testing
import VellumStore

/// Issue 11, torture run, "Creating stores": a store appears at its path only
/// complete, and of several creates of one path exactly one succeeds.
@Suite("vellum create, atomically", .serialized)
struct CreateAtomicallyTests {
    /// A JSON model with many entities, so building the schema takes a while.
    static func bigModel(in dir: TempDir) throws -> String {
        var builder = ModelBuilder()
        for i in 0..<150 {
            builder = builder.entity("Entity\(i)") {
                for a in 0..<8 { $0.attribute("a\(a)", .string, indexed: a < 3) }
            }
        }
        let path = dir.path("big.json")
        try builder.build().jsonData().write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Entries of `dir` other than the model.
    func entries(_ dir: TempDir) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []).filter { $0 != "big.json" }.sorted()
    }

    @Test func killedCreateLeavesNoStubFile() async throws {
        let dir = TempDir()
        let model = try Self.bigModel(in: dir)
        let store = dir.path("s.vellum")
        var killedBeforeDone = 0
        for attempt in 0..<12 {
            let child = try ChildProcess(["create", store, "--model", model])
            // A blocking sleep: resuming after `Task.sleep` can wait for a busy cooperative pool
            // until the create is long done, and the kill would prove nothing.
            usleep(UInt32(30_000 + attempt * 25_000))
            if child.process.isRunning { killedBeforeDone += 1 }
            child.signal(SIGKILL)
            await child.waitForExit(timeout: 20)
            // Whatever the moment of the kill: no store, or a complete one.
            if FileManager.default.fileExists(atPath: store) {
                #expect(try sqliteScalar(store, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name LIKE 'Entity%'") == "150",
                        "attempt \(attempt): an incomplete store was left at the path")
                #expect(try VellumBinary.run(["query", store, "Entity7"]).status == 0)
                try FileManager.default.removeItem(atPath: store)
            }
            // Nothing left in the way: creating again works.
            let again = try VellumBinary.run(["create", store, "--model", model])
            #expect(again.status == 0, "attempt \(attempt): \(again.stderr)")
            try FileManager.default.removeItem(atPath: store)
            for leftover in entries(dir) { try FileManager.default.removeItem(atPath: dir.path(leftover)) }
        }
        #expect(killedBeforeDone > 0, "no create was interrupted; the test proved nothing")
    }

    @Test func concurrentCreatesOfOnePathOneSucceeds() async throws {
        let dir = TempDir()
        let model = try Self.bigModel(in: dir)
        let store = dir.path("s.vellum")
        let children = try (0..<6).map { _ in try ChildProcess(["create", store, "--model", model]) }
        for c in children { await c.waitForExit(timeout: 60) }
        let statuses = children.map { $0.process.terminationStatus }
        #expect(statuses.filter { $0 == 0 }.count == 1, "\(statuses) \(children.map(\.stderr))")
        for c in children where c.process.terminationStatus != 0 {
            #expect(c.stderr.contains("already exists; refusing to overwrite it"), "\(c.stderr)")
        }
        // The winner's store is the one at the path, complete; no temporary files remain.
        let winner = children.first { $0.process.terminationStatus == 0 }!
        let uuid = try sqliteScalar(store, "SELECT value FROM _vellum_metadata WHERE key = 'uuid'")
        #expect(winner.lines.first?.hasSuffix("store \(uuid)") == true, "\(winner.lines) \(uuid)")
        #expect(entries(dir) == ["s.vellum"])
    }

    @Test func createRefusesADanglingSymlinkAndALeftoverJournal() throws {
        let dir = TempDir()
        let model = try Self.bigModel(in: dir)
        try FileManager.default.createSymbolicLink(atPath: dir.path("link.vellum"), withDestinationPath: dir.path("nowhere"))
        let r = try VellumBinary.run(["create", dir.path("link.vellum"), "--model", model])
        #expect(r.status == 1 && r.stderr.contains("already exists"), "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("nowhere")))
        try Data("stale".utf8).write(to: URL(fileURLWithPath: dir.path("old.vellum-wal")))
        let w = try VellumBinary.run(["create", dir.path("old.vellum"), "--model", model])
        #expect(w.status == 1 && w.stderr.contains("old.vellum-wal exists without its database"), "\(w.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("old.vellum")))
    }
}
