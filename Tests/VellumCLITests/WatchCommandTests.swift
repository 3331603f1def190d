import Foundation
import Testing
import VellumStore
@testable import vellum

@Suite("vellum watch", .serialized)
struct WatchCommandTests {
    @Test func printsOtherWritersChangesAsJSONLines() async throws {
        let dir = TempDir()
        let path = dir.path("shop.vellum")
        try CLIFixtures.makeShop(at: path)
        let watch = try ChildProcess(["watch", path, "--json"])
        // It has its starting history token once it says it is watching.
        #expect(await watch.waitForStderr("vellum: watching", timeout: 30))

        // A Vellum writer in this process (its own store object).
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
        let c = try ManagedObjectContext(store: store)
        c.transactionAuthor = "test-writer"
        let kiwi = try c.insert("Product", values: ["name": .string("kiwi"), "price": .double(3)])
        _ = try c.save()
        let kiwiURI = try #require(store.permanentID(for: kiwi.objectID)).uriString
        let apple = try #require(try c.fetch("Product", where: try VellumStore.QueryPredicate(format: "name == 'apple'")).first)
        try apple.setValue(.double(9), forKey: "price")
        try apple.setValue(.integer(1), forKey: "stock")
        _ = try c.save()
        let banana = try #require(try c.fetch("Product", where: try VellumStore.QueryPredicate(format: "name == 'banana'")).first)
        // The sqlite3 shell.
        let shell = try runSQLite(path, "DELETE FROM Product WHERE name = 'banana';\n")
        #expect(shell.status == 0, "\(shell.err)")

        let done = await watch.waitForLines(timeout: 15) { lines in
            lines.contains { $0.contains("\"kind\":\"delete\"") }
        }
        watch.signal(SIGTERM)
        let exited = await watch.waitForExit(timeout: 10)
        #expect(done, "\(watch.lines) \(watch.stderr)")
        #expect(exited)
        #expect(watch.process.terminationStatus == 0, "\(watch.stderr)")

        let events = try watch.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        #expect(events.count == 3, "\(watch.lines)")
        guard events.count == 3 else { return }
        #expect(events[0]["kind"] as? String == "insert")
        #expect(events[0]["author"] as? String == "test-writer")
        #expect(events[0]["entity"] as? String == "Product")
        #expect(events[0]["object"] as? String == kiwiURI)
        #expect(events[1]["kind"] as? String == "update")
        #expect(events[1]["object"] as? String == apple.objectID.uriString)
        #expect(Set(events[1]["changed"] as? [String] ?? []) == ["price", "stock"])
        #expect(events[2]["kind"] as? String == "delete")
        #expect(events[2]["author"] is NSNull)
        #expect(events[2]["object"] as? String == banana.objectID.uriString)
        for e in events {
            #expect(Value.parseISO8601(e["time"] as? String ?? "") != nil)
        }
    }

    @Test func textLinesAndSIGINT() async throws {
        let dir = TempDir()
        let path = dir.path("shop.vellum")
        try CLIFixtures.makeShop(at: path)
        let watch = try ChildProcess(["watch", path])
        #expect(await watch.waitForStderr("vellum: watching", timeout: 30))
        let r = try VellumBinary.run(["update", path, "Product", "--where", "name == 'date'", "stock=6"])
        #expect(r.status == 0, "\(r.stderr)")
        let seen = await watch.waitForLines(timeout: 15) { !$0.isEmpty }
        watch.signal(SIGINT)
        #expect(await watch.waitForExit(timeout: 10))
        #expect(seen)
        #expect(watch.process.terminationStatus == 0)
        let fields = (watch.lines.first ?? "").components(separatedBy: "  ")
        #expect(fields.count == 6, "\(watch.lines)")
        guard fields.count == 6 else { return }
        #expect(fields[1] == "vellum-cli")
        #expect(fields[2] == "Product")
        #expect(fields[3].contains("/Product/p"))
        #expect(fields[4] == "update")
        #expect(fields[5] == "stock")
    }
}
