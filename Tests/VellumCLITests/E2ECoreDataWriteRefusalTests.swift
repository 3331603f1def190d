import Foundation
import Testing

/// A Core Data store Vellum cannot write as Core Data would is browsed read-only, and the
/// browser says why (the store's `writeRefusal`), on opening and when an edit is tried,
/// instead of the generic "opened read-only" advice; the file is not changed.
@Suite("E2E browser on a Core Data store it cannot write", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ECoreDataWriteRefusalTests {
    @Test func theBrowserShowsWhyACoreDataStoreIsNotWritten() throws {
        let copy = try CoreDataFixtureCopy("CoreDataBooks.sqlite")
        let path = copy.url.path
        // A sub-entity the store's version hashes know nothing of: the inferred model is unconfirmed.
        #expect(try sqliteShell(path, "INSERT INTO Z_PRIMARYKEY VALUES (2, 'Novel', 1, 0)") == 0)
        let before = try copy.bytes()
        let t = Tmux("'\(VellumBinary.url.path)' '\(path)'")
        defer { t.kill() }
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        #expect(t.wait(for: "read-only: model inferred, unconfirmed by the stored version hashes"), "\(t.screen)")
        t.keys(":"); t.type("goto Book"); t.keys("Enter")
        #expect(t.wait(for: "│ Book │ row 1/12"), "\(t.screen)")
        t.keys("l", "e")
        #expect(t.wait(for: "read-only: model inferred, unconfirmed by the stored version hashes"), "\(t.screen)")
        #expect(!t.screen.contains("reopen without --read-only"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(try copy.bytes() == before)
        #expect(copy.originalUnchanged())
    }
}
