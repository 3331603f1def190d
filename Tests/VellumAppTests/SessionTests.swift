import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Drives a BrowserSession without a terminal against a real demo store.
@MainActor @Suite(.serialized) struct SessionTests {
    static func makeStore() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-app-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("demo.sqlite")
        try DemoStore.create(at: url)
        return url
    }

    static func open(_ url: URL) throws -> PersistentContainer {
        try PersistentContainer(model: nil, storeURL: url, options: StoreOptions(createIfMissing: false))
    }

    @Test func demoStoreAndBrowsing() async throws {
        let url = try Self.makeStore()
        let session = BrowserSession(container: try Self.open(url))
        #expect(session.state.entityNames == ["Image", "Product", "Provider", "Task"])
        #expect(session.entityCounts == [67, 200, 10, 30])
        await session.handle(.char(":"))
        for c in "goto Product" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.currentEntityName == "Product")
        #expect(session.state.rowCount == 200)
        await session.handle(.char("/"))
        for c in "price > 150" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.rowCount > 0 && session.state.rowCount < 200)
    }

    @Test func backgroundSavesReachViewContextAndFlash() async throws {
        let url = try Self.makeStore()
        let session = BrowserSession(container: try Self.open(url))
        await session.handle(.char(":"))
        for c in "goto Task" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.rowCount == 30)
        // Another process-like writer with its own container.
        let writer = Task.detached { try DemoWriter.run(storePath: url.path, iterations: 8, interval: 0.01) }
        try await writer.value
        let other = try Self.open(url)
        _ = other
        // Another container's saves reach this one only via the file; the write queue of ours merges directly.
        let ours = session.container
        let id = try await ours.enqueue { ctx in try ctx.insert("Task", values: ["title": .string("from queue")]).objectID }
        _ = id
        #expect(await waitUntil { session.state.rowCount >= 31 })
        #expect(session.state.lastChange != nil)
    }

    @Test func editValidatesAndSaves() async throws {
        let url = try Self.makeStore()
        let session = BrowserSession(container: try Self.open(url))
        await session.handle(.char(":"))
        for c in "goto Product" { await session.handle(.char(c)) }
        await session.handle(.enter)
        await session.handle(.char("l"))           // price
        await session.handle(.char("e"))
        #expect(session.state.mode == .edit)
        await session.handle(.ctrl("u"))
        for c in "abc" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.mode == .edit)
        #expect(session.state.editError != nil)
        await session.handle(.ctrl("u"))
        for c in "12.5" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.mode == .browse)
        let object = try #require(session.rows).object(at: 0)
        #expect(await waitUntil { (try? object.value(forKey: "price")) == .double(12.5) })
    }

    @Test func deleteDeniedShowsError() async throws {
        let url = try Self.makeStore()
        let session = BrowserSession(container: try Self.open(url))
        await session.handle(.char(":"))
        for c in "goto Provider" { await session.handle(.char(c)) }
        await session.handle(.enter)
        #expect(session.state.currentEntityName == "Provider")
        // The deny rule is stated at `d`, before any yes: the question is not even asked.
        await session.handle(.char("d"))
        #expect(session.state.statusIsError && session.state.mode == .browse)
        await session.handle(.char("y"))
        #expect(session.entityCounts[2] == 10)
        #expect(try sqliteScalar(url.path, "SELECT count(*) FROM Provider") == "10")
    }

    @Test func addRecord() async throws {
        let url = try Self.makeStore()
        let session = BrowserSession(container: try Self.open(url))
        await session.handle(.char(":"))
        for c in "goto Task" { await session.handle(.char(c)) }
        await session.handle(.enter)
        await session.handle(.char("a"))
        #expect(await waitUntil { session.state.rowCount == 31 })
        #expect(!session.state.statusIsError)
    }
}
