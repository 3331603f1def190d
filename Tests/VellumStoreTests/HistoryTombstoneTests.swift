import Foundation
import Testing
@testable import VellumStore

/// A delete's tombstone keeps every preserved value, whoever deleted the row, and
/// one that cannot be read is an error naming the change, never an empty tombstone.
/// On both engines (`StoreEngine`), but for the tombstone codec's own round trip.
@Suite struct HistoryTombstoneTests {
    func model() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Reading") {
                $0.attribute("label", .string, preservedOnDeletion: true)
                $0.attribute("value", .double, preservedOnDeletion: true)
            }
            .build()
    }

    /// Another program stored an infinity (both engines hold it; Vellum reads it back).
    func storeWithInfiniteReading(_ engine: StoreEngine, _ dir: TempDir) throws -> StoreEngine.Opened {
        let opened = try engine.open(model(), in: dir)
        let ctx = try ManagedObjectContext(store: opened.store)
        try ctx.insert("Reading", values: ["label": .string("sensor"), "value": .double(1)])
        try ctx.save()
        // SQLite's literal overflows to infinity; PostgreSQL refuses that and spells it as text.
        try opened.outside(#"UPDATE "Reading" SET "value" = "# + (engine == .sqlite ? "9e999" : "'Infinity'"))
        return opened
    }

    @Test(arguments: StoreEngine.allCases) func aVellumDeleteKeepsATombstoneHoldingAnInfinity(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let store = try storeWithInfiniteReading(engine, dir).store
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

    @Test(arguments: StoreEngine.allCases) func anOtherProgramsDeleteOfAnInfinityIsReadBack(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let opened = try storeWithInfiniteReading(engine, dir)
        let start = try opened.store.currentHistoryToken()
        try opened.outside(#"DELETE FROM "Reading""#)
        let change = try #require(try opened.store.history(after: start).last?.changes.first)
        #expect(change.kind == .delete)
        #expect(change.tombstone == ["label": .string("sensor"), "value": .double(.infinity)])
    }

    @Test(arguments: StoreEngine.allCases) func anUnreadableTombstoneIsAnErrorNamingTheChange(_ engine: StoreEngine) throws {
        let dir = TempDir()
        let opened = try storeWithInfiniteReading(engine, dir)
        let start = try opened.store.currentHistoryToken()
        try opened.outside(#"DELETE FROM "Reading"; UPDATE "_vellum_changes" SET "tombstone" = '{"label": [1,' WHERE "kind" = 2;"#)
        let id = try #require(try opened.read(#"SELECT "id" FROM "_vellum_changes" WHERE "kind" = 2"#).first?.first?.integerValue)
        let error = try #require(throws: StoreError.self) { try opened.store.history(after: start) }
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
