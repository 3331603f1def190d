import Foundation
import Testing
@testable import VellumStore

/// Versions: renaming chains across three versions, Moody v1 → v2 (an attribute
/// renamed through Xcode's elementID, a required attribute added with a default).
@Suite struct MigrationVersionTests {
    static func person(_ name: String, renamedFrom: String?, extra: Bool = false) throws -> ManagedObjectModel {
        try ModelBuilder().entity("Person") {
            $0.attribute(name, .string, renamedFrom: renamedFrom)
            $0.attribute("age", .integer16)
            if extra { $0.attribute("city", .string, default: .string("Paris")) }
        }.build()
    }

    static func fill(_ ctx: ManagedObjectContext) throws {
        for (n, a) in [("Ada", 36), ("Grace", 85)] { _ = try ctx.insert("Person", values: ["name": .string(n), "age": .integer(Int64(a))]) }
    }

    @Test func renamesChainThroughThreeVersions() throws {
        let v1 = try Self.person("name", renamedFrom: nil)
        let v2 = try Self.person("fullName", renamedFrom: "name")
        let v3 = try Self.person("displayName", renamedFrom: "fullName", extra: true)
        let store = try MigrationTestStore(v1, fill: Self.fill)
        // Straight from v1, v3's identifier names nothing there: the plan says the values would go.
        #expect(try StoreMigrator.plan(storeAt: store.url, to: v3).description.contains("attribute name removed"))
        let results = try StoreMigrator.migrate(storeAt: store.url, through: [v1, v2, v3], options: MigrationOptions(backup: true))
        #expect(results.map(\.migrated) == [true, true])
        #expect(results[0].backupPath != nil && results[1].backupPath == nil)
        let rows = try store.rows("Person", model: v3)
        #expect(Set(rows.values.map { [$0["displayName"]!, $0["age"]!, $0["city"]!] }) == [
            [.string("Ada"), .integer(36), .string("Paris")], [.string("Grace"), .integer(85), .string("Paris")],
        ])
        // Run again: the store holds v3, nothing to do.
        #expect(try StoreMigrator.migrate(storeAt: store.url, through: [v1, v2, v3]).map(\.migrated) == [])
    }

    @Test func aStableRenamingIdentifierLinksVersionsDirectly() throws {
        let v1 = try Self.person("name", renamedFrom: nil)
        let v2 = try Self.person("fullName", renamedFrom: "name")
        let v3 = try Self.person("displayName", renamedFrom: "name")
        let store = try MigrationTestStore(v1, fill: Self.fill)
        try store.migrate(to: v2)
        try store.migrate(to: v3)  // v3's identifier is v2's too: fullName continues as displayName
        #expect(Set(try store.rows("Person", model: v3).values.map { $0["displayName"]! }) == [.string("Ada"), .string("Grace")])
    }

    static func moody(_ version: Int, _ dir: TempDir) throws -> ManagedObjectModel {
        let original = SharedFixtures.directory.appendingPathComponent("models/moody-v\(version).xcdatamodel.xml")
        let before = try Data(contentsOf: original)
        let copy = dir.file("moody-v\(version).xml")
        try FileManager.default.copyItem(at: original, to: copy)
        let model = try XcodeModelReader.read(data: Data(contentsOf: copy), file: copy.path)
        #expect(try Data(contentsOf: original) == before)
        return model
    }

    @Test func moodyV1ToV2OnAStoreWithData() throws {
        let dir = TempDir()
        let v1 = try Self.moody(1, dir), v2 = try Self.moody(2, dir)
        #expect(v1.versionIdentifier == "1" && v2.versionIdentifier == "2")
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let store = try MigrationTestStore(v1) { ctx in
            let europe = try ctx.insert("Continent", values: ["numericISO3166Code": .integer(150), "updatedAt": .date(now)])
            let france = try ctx.insert("Country", values: ["numericISO3166Code": .integer(250), "updatedAt": .date(now)])
            try france.setToOne("continent", europe)
            for i in 0..<50 {
                let mood = try ctx.insert("Mood", values: ["date": .date(now.addingTimeInterval(Double(i))), "latitude": .double(48.8 + Double(i) / 100),
                                                           "remoteIdentifier": i % 5 == 0 ? .null : .string("remote-\(i)"), "creatorID": .string("me")])
                try mood.setToOne("country", france)
            }
        }
        let moods = try store.rows("Mood", model: v1)
        let plan = try StoreMigrator.plan(storeAt: store.url, to: v2)
        #expect(plan.description.contains("attribute remoteIdentifier renamed to remoteID"), "\(plan)")
        #expect(plan.description.contains("attribute rating added (integer16, required, default 0)") || plan.description.contains("attribute rating added"), "\(plan)")
        #expect(plan.canRun)
        try store.migrate(to: v2)
        let after = try store.rows("Mood", model: v2)
        #expect(after.count == 50)
        for (key, row) in moods {
            var expected = row
            expected["remoteID"] = expected.removeValue(forKey: "remoteIdentifier")
            expected["rating"] = .integer(0)
            #expect(after[key] == expected, "Mood \(key)")
        }
        #expect(try store.rows("Country", model: v2).values.first?["continent"] == .integer(1))
    }

    @Test func versionIdentifierRoundTripsInJSONAndStaysOutOfTheHash() throws {
        let json = Data(#"{"versionIdentifier": "7", "entities": [{"name": "A", "attributes": [{"name": "x", "type": "string"}]}]}"#.utf8)
        let model = try ManagedObjectModel.fromJSON(json)
        #expect(model.versionIdentifier == "7")
        #expect(try ManagedObjectModel.fromJSON(model.jsonData()).versionIdentifier == "7")
        let plain = try ModelBuilder().entity("A") { $0.attribute("x", .string) }.build()
        #expect(plain.versionHash == model.versionHash)
    }

    /// The Swift builder names versions as JSON does, and the name survives the store's JSON.
    @Test func builderVersionIdentifierIsKeptAndStaysOutOfTheHash() throws {
        let named = try ModelBuilder(versionIdentifier: "2").entity("A") { $0.attribute("x", .string) }.build()
        #expect(named.versionIdentifier == "2")
        #expect(try ManagedObjectModel.fromJSON(named.jsonData()).versionIdentifier == "2")
        #expect(try ModelBuilder().entity("A") { $0.attribute("x", .string) }.build().versionHash == named.versionHash)
    }
}
