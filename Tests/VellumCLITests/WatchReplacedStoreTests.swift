import Foundation
import Testing
import VellumStore
@testable import vellum

/// "`vellum watch`" (torture run): a store deleted and recreated at the same path
/// is noticed (inode change), said on stderr, and the new file is watched.
@Suite("vellum watch, replaced store", .serialized)
struct WatchReplacedStoreTests {
    @Test func watchNoticesTheStoreRecreatedAtTheSamePath() async throws {
        let dir = TempDir()
        let path = dir.path("shop.vellum")
        try CLIFixtures.makeShop(at: path)
        let watch = try ChildProcess(["watch", path])
        #expect(await watch.waitForStderr("vellum: watching", timeout: 30))
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try CLIFixtures.makeShop(at: path)
        #expect(await watch.waitForStderr("watching \(path) again", timeout: 30), "\(watch.stderr)")
        let r = try VellumBinary.run(["update", path, "Product", "--where", "name == 'date'", "stock=6"])
        #expect(r.status == 0, "\(r.stderr)")
        let seen = await watch.waitForLines(timeout: 15) { $0.contains { $0.contains("update") } }
        watch.signal(SIGTERM)
        #expect(await watch.waitForExit(timeout: 10))
        #expect(seen, "the change in the new file was not seen: \(watch.lines) \(watch.stderr)")
        #expect(watch.stderr.contains("was deleted") || watch.stderr.contains("was replaced"), "\(watch.stderr)")
        #expect(watch.process.terminationStatus == 0, "\(watch.stderr)")
    }
}
