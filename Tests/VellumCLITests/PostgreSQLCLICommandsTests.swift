import Foundation
import Testing
import VellumStore

/// Issue #18: `model`, `watch` and `track` take a `postgresql://` URL as they take a
/// store file; `watch` prints other writers' changes object by object from the
/// store's history (another process's save and `psql` alike).
@Suite struct PostgreSQLCLICommandsTests {
    /// A store of the shop model in a fresh schema; its URL.
    func makeStore(_ schema: String) throws -> String {
        let url = try PostgreSQLCluster.shared().makeSchema(schema)
        _ = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: CLIFixtures.shopModel())
        return url
    }

    @Test func modelPrintsTheStoredModelOfAURL() throws {
        let url = try makeStore("model")
        let r = try VellumBinary.run(["model", url])
        #expect(r.status == 0, "\(r.stderr)")
        let hash = try CLIFixtures.shopModel().versionHash
        #expect(r.stdout.contains("entity Product") && r.stdout.contains("version hash: \(hash)"), "\(r.stdout)")
        let json = try VellumBinary.run(["model", url, "--json"])
        #expect(try ManagedObjectModel.fromJSON(Data(json.stdout.utf8)).versionHash == CLIFixtures.shopModel().versionHash)
    }

    @Test func watchPrintsAnotherProcesssSaveAndAPsqlUpdateObjectByObject() async throws {
        let url = try makeStore("watch")
        let watch = try ChildProcess(["watch", url])
        #expect(await watch.waitForStderr("vellum: watching", timeout: 60))
        let r = try VellumBinary.run(["insert", url, "Provider", "name=Acme"])
        #expect(r.status == 0, "\(r.stderr)")
        try PGConnection(url: url).execute(#"UPDATE "Provider" SET "name" = 'Initech'"#)
        let seen = await watch.waitForLines(timeout: 60) { $0.count >= 2 }
        watch.signal(SIGINT)
        #expect(await watch.waitForExit(timeout: 30))
        #expect(seen, "\(watch.lines) \(watch.stderr)")
        let fields = watch.lines.map { $0.components(separatedBy: "  ") }
        guard fields.count >= 2, fields.allSatisfy({ $0.count == 6 }) else { Issue.record("\(watch.lines)"); return }
        #expect(fields[0][1] == "vellum-cli" && fields[0][2] == "Provider" && fields[0][4] == "insert", "\(watch.lines)")
        #expect(fields[1][1] == "-" && fields[1][4] == "update" && fields[1][5] == "name", "\(watch.lines)")
        #expect(fields[0][3] == fields[1][3], "the same object")
    }

    @Test func trackSaysAServerStoreRecordsHistoryItself() throws {
        let url = try PostgreSQLCluster.shared().makeSchema("track")
        var options = StoreOptions()
        options.recordsHistory = false
        _ = try PersistentStore(postgreSQL: PostgreSQLURL(url), model: CLIFixtures.shopModel(), options: options)
        let r = try VellumBinary.run(["track", url])
        #expect(r.status == 0 && r.stdout.contains("records every writer's changes itself"), "\(r.stdout) \(r.stderr)")
        #expect(try PGConnection(url: url).scalar("SELECT to_regclass('_vellum_changes') IS NOT NULL") == .bool(true))
    }
}
