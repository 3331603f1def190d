import Foundation
import Testing
@testable import VellumStore

/// An app's Xcode model given with `--model` is checked against the store by Core Data's
/// version hashes, which include what Vellum's model does not keep: hash modifiers,
/// external binary storage, derivation expressions. Before, the Xcode model was read
/// without them, so a real model that used them was refused as "not the store's model" —
/// including a model Vellum itself wrote with `vellum model STORE --xcdatamodel DIR`.
@Suite struct XcodeModelDetailsTests {
    static func model() throws -> CoreDataModel {
        let m = try ModelBuilder()
            .entity("Book") {
                $0.attribute("title", .string)
                $0.attribute("cover", .binary)
                $0.attribute("titleLength", .integer64)
                $0.toMany("notes", "Note", inverse: "book")
            }
            .entity("Note") { $0.attribute("text", .string); $0.toOne("book", "Book", inverse: "notes") }
            .build()
        var book = CoreDataEntityDetails()
        book.className = "Book"
        book.versionHashModifier = "2"
        var cover = CoreDataPropertyDetails()
        cover.allowsExternalStorage = true
        var length = CoreDataPropertyDetails()
        length.derivationExpression = "title.length"
        var notes = CoreDataPropertyDetails()
        notes.versionHashModifier = "renumbered"
        book.properties = ["cover": cover, "titleLength": length, "notes": notes]
        return CoreDataModel(model: m, details: ["Book": book])
    }

    @Test func aModelWithHashModifiersExternalStorageAndDerivationsKeepsItsVersionHashesThroughXcode() throws {
        let original = try Self.model()
        let dir = TempDir()
        let folder = dir.path("Recovered.xcdatamodel")
        try XcodeModelWriter.write(original, toFolder: folder)
        let back = try XcodeModelDetailsReader.coreDataModel(url: URL(fileURLWithPath: folder))
        #expect(back.model == original.model)
        #expect(CoreDataVersionHash.hashes(back) == CoreDataVersionHash.hashes(original))
        #expect(CoreDataVersionHash.differingEntities(back, stored: CoreDataVersionHash.hashes(original)).isEmpty)
        // Each detail changes the hash: reading without them would not match.
        let bare = CoreDataModel(model: try XcodeModelReader.read(url: URL(fileURLWithPath: folder)))
        #expect(CoreDataVersionHash.differingEntities(bare, stored: CoreDataVersionHash.hashes(original)) == ["Book"])
        #expect(back.details["Book"]?.className == "Book")
    }

    @Test func aVersionedBundleGivesItsCurrentVersionsDetails() throws {
        let dir = TempDir()
        let bundle = dir.url.appendingPathComponent("App.xcdatamodeld")
        var old = try Self.model().details
        old["Book"]?.versionHashModifier = "1"
        try XcodeModelWriter.write(CoreDataModel(model: try Self.model().model, details: old),
                                   toFolder: bundle.appendingPathComponent("App.xcdatamodel").path)
        try XcodeModelWriter.write(try Self.model(), toFolder: bundle.appendingPathComponent("App 2.xcdatamodel").path)
        let read = try XcodeModelDetailsReader.coreDataModel(url: bundle)
        #expect(read.details["Book"]?.versionHashModifier == "2")
        #expect(CoreDataVersionHash.hashes(read) == CoreDataVersionHash.hashes(try Self.model()))
    }
}
