import Foundation
import Testing
@testable import VellumStore

/// Issue 16: `reset()` said registered objects become unusable, yet loaded objects
/// stayed readable (with values the context no longer vouched for). As in Core Data,
/// objects from before a reset are invalid: reading or writing one throws.
@Suite struct ContextResetTests {
    @Test func objectsLoadedBeforeAResetCannotBeReadOrWritten() throws {
        let dir = TempDir()
        let ctx = try ManagedObjectContext(store: try Fixtures.openShop(dir))
        try ctx.insert("Tag", values: ["name": "saved"])
        try ctx.save()
        let saved = try #require(try ctx.fetch("Tag").first)
        #expect(try saved["name"] == "saved")
        let pending = try ctx.insert("Tag", values: ["name": "pending"])

        ctx.reset()
        for object in [saved, pending] {
            let read = #expect(throws: StoreError.self) { try object["name"] }
            #expect(read?.description.contains("reset") == true, "\(String(describing: read))")
            #expect(throws: StoreError.self) { try object.setValue("other", forKey: "name") }
        }
        #expect(!ctx.hasChanges)
        // The context itself works on: a fetch gives new, valid objects.
        let again = try ctx.fetch("Tag")
        #expect(try again.map { try $0["name"] } == ["saved"])
        #expect(again.first !== saved)
    }
}
