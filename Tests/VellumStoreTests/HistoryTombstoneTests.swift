import Foundation
import Testing
@testable import VellumStore

/// A delete's tombstone keeps every preserved value, whoever deleted the row, and
/// one that cannot be read is an error naming the change, never an empty tombstone.
@Suite struct HistoryTombstoneTests {
    func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Reading") {
                $0.attribute("label", .string, preservedOnDeletion: true)
                $0.attribute("value", .double, preservedOnDeletion: true)
            }
            .build()
    }

    /// Another program stored an infinity (SQLite holds it; Vellum reads it back).
    func storeWithInfiniteReading(_ dir: TempDir) throws -> (PersistentStore, String) {
        let path = dir.file("h.sqlite").path
        let store = try PersistentStore(url: dir.file("h.sqlite"), model: model())
        let ctx = try ManagedObjectContext(store: store)
        try ctx.insert("Reading", values: ["label": .string("sensor"), "value": .double(1)])
        try ctx.save()
        #expect(try runSQLite(path, "UPDATE Reading SET value = 9e999;").status == 0)
        return (store, path)
    }

    @Test func aVellumDeleteKeepsATombstoneHoldingAnInfinity() throws {
        let dir = TempDir()
        let (store, _) = try storeWithInfiniteReading(dir)
        let start = try store.currentHistoryToken()
        let ctx = try ManagedObjectContext(store: store)
        let reading = try #require(try ctx.fetch(FetchRequest(entityName: "Reading")).first)
        #expect(try reading["value"] == .double(.infinity))
        try ctx.delete(reading)
        try ctx.save()
        let change = try #require(try store.history(after: start).last?.changes.first)
        #expect(change.kind == .delete)
        #expect(change.tombstone == ["label": .string("sensor"), "value": .double(.infinity)])
    }

    @Test func aShellDeleteOfAnInfinityIsReadBack() throws {
        let dir = TempDir()
        let (store, path) = try storeWithInfiniteReading(dir)
        let start = try store.currentHistoryToken()
        #expect(try runSQLite(path, "DELETE FROM Reading;").status == 0)
        let change = try #require(try store.history(after: start).last?.changes.first)
        #expect(change.kind == .delete)
        #expect(change.tombstone == ["label": .string("sensor"), "value": .double(.infinity)])
    }

    @Test func anUnreadableTombstoneIsAnErrorNamingTheChange() throws {
        let dir = TempDir()
        let (store, path) = try storeWithInfiniteReading(dir)
        let start = try store.currentHistoryToken()
        #expect(try runSQLite(path, "DELETE FROM Reading; UPDATE _vellum_changes SET tombstone = '{\"label\": [1,' WHERE kind = 2;").status == 0)
        let id = try sqliteScalar(path, "SELECT id FROM _vellum_changes WHERE kind = 2")
        let error = try #require(throws: StoreError.self) { try store.history(after: start) }
        #expect(error.description.contains("history change \(id) (Reading)"), "\(error)")
        #expect(error.description.contains("tombstone"), "\(error)")
    }

    @Test func tombstoneTextRoundTrips() throws {
        let columns: [(column: String, value: TombstoneJSON.Scalar)] = [
            ("b", .string("quote \" back\\slash\n\u{1} é 🎉")), ("a", .number("-12")), ("c", TombstoneJSON.number(0.1)),
            ("d", TombstoneJSON.number(-.infinity)), ("e", TombstoneJSON.number(.nan)), ("f", .bool(true)),
        ]
        let text = TombstoneJSON.encode(columns)
        #expect(text.hasPrefix("{\"a\":-12,\"b\":"))
        let back = try TombstoneJSON.decode(text)
        #expect(back == ["a": .number("-12"), "b": .string("quote \" back\\slash\n\u{1} é 🎉"), "c": .number("0.1"),
                         "d": .number("-9e999"), "e": .null, "f": .bool(true)])
        #expect(try TombstoneJSON.decode("{\"s\":\"\\ud83c\\udf89\", \"x\" : Inf}") == ["s": .string("🎉"), "x": .number("Inf")])
        #expect(throws: TombstoneJSON.Unreadable.self) { try TombstoneJSON.decode("{\"a\":1") }
    }
}
