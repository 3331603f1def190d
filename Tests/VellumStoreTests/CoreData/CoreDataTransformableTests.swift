import Foundation
import Testing
@testable import VellumStore

/// Transformable attributes of a Core Data store (Moody's `colors`, archived by the app's own
/// `ColorsTransformer`) are read as the stored bytes and never re-encoded: saving another
/// attribute of the object leaves them byte-for-byte as they were.
@Suite struct CoreDataTransformableTests {
    @Test func transformableBytesAreKeptAsStoredWhenTheObjectIsSaved() throws {
        let copy = try CoreDataFixtureCopy("Moody-v1.sqlite")
        let path = copy.url.path
        let hex = try sqliteShellOutput(path, "SELECT hex(ZCOLORS) FROM ZMOOD WHERE Z_PK = 84")
        #expect(hex.first?.count == 48)
        let store = try PersistentStore.openAny(url: copy.url, model: nil, options: StoreOptions(createIfMissing: false))
        #expect(store.model.entity(named: "Mood")?.attribute(named: "colors")?.type == .binary)
        let c = try ManagedObjectContext(store: store)
        let mood = try #require(try c.fetch("Mood").first { $0.objectID.primaryKey == 84 })
        guard case .data(let bytes) = try mood["colors"] else { Issue.record("colors: \(try mood["colors"])"); return }
        #expect(bytes.map { String(format: "%02X", $0) }.joined() == hex.first)
        try mood.setValue(.string("vellum"), forKey: "creatorID")
        try c.save()
        #expect(try sqliteShellOutput(path, "SELECT hex(ZCOLORS) || '|' || ZCREATORID || '|' || Z_OPT FROM ZMOOD WHERE Z_PK = 84") == ["\(hex[0])|vellum|2"])
        #expect(copy.originalUnchanged())
    }
}
