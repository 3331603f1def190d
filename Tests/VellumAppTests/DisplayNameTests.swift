import Foundation
import Testing
@testable import VellumApp
import VellumStore

/// A to-one shows its target by a name-like attribute, whatever its case: other
/// programs' databases spell it `Name` or `Title` (Chinook), not `name`.
@MainActor @Suite struct DisplayNameTests {
    static func object(attribute: String, value: String) throws -> ManagedObject {
        let model = try ModelBuilder().entity("Artist") {
            $0.attribute("ArtistId", .integer64, optional: true)
            $0.attribute(attribute, .string, optional: true)
        }.build()
        let store = try PersistentStore(url: nil, model: model, options: .inMemory)
        let context = try ManagedObjectContext(store: store)
        let artist = try context.insert("Artist")
        try artist.setValue(.string(value), forKey: attribute)
        return artist
    }

    @Test func aCapitalisedNameAttributeNamesTheObject() throws {
        let artist = try Self.object(attribute: "Name", value: "AC/DC")
        #expect(DisplayName.of(artist) == "AC/DC")
    }

    @Test func aTitleInAnyCaseNamesTheObject() throws {
        let album = try Self.object(attribute: "TITLE", value: "Let There Be Rock")
        #expect(DisplayName.of(album) == "Let There Be Rock")
    }

    /// Regression: the fallback was the object's URI (`vellum://<store UUID>/Artist/p1`),
    /// so a picker of such objects showed the same 40 columns of UUID on every line.
    @Test func withoutANameLikeAttributeTheEntityAndKeyAreShown() throws {
        let model = try ModelBuilder().entity("Artist") { $0.attribute("Country", .string, optional: true) }.build()
        let context = try ManagedObjectContext(store: try PersistentStore(url: nil, model: model, options: .inMemory))
        let thing = try context.insert("Artist")
        #expect(DisplayName.of(thing) == "Artist new")
        try context.save()
        let key = try #require(thing.objectID.primaryKey)
        #expect(DisplayName.of(thing) == "Artist p\(key)")
    }
}
