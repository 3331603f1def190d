import Foundation
import Testing
import VellumStore

/// Editing binary (hex) and transformable (JSON) fields in the real binary.
@Suite("E2E binary and JSON fields in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EBinaryFieldTests {
    /// One `Doc` (name, photo: binary, tags: transformable) with photo 01 02 ab and tags ["a"].
    static func makeStore(in dir: TempDir) throws -> String {
        let path = dir.path("docs.sqlite")
        let model = try ModelBuilder()
            .entity("Doc") {
                $0.attribute("name", .string, optional: false)
                $0.attribute("photo", .binary)
                $0.attribute("tags", .transformable)
            }
            .build()
        let container = try PersistentContainer(model: model, storeURL: URL(fileURLWithPath: path))
        let ctx = try ManagedObjectContext(store: container.store)
        try ctx.insert("Doc", values: ["name": .string("Report"), "photo": .data(Data([1, 2, 0xAB])), "tags": .string("[\"a\"]")])
        _ = try ctx.save()
        return path
    }

    @Test func hexAndJSONAreEditableAndBadInputIsRefused() throws {
        let dir = TempDir()
        let path = try Self.makeStore(in: dir)
        func sql(_ statement: String) -> String {
            (try? sqliteOutput(path, statement)) ?? "sqlite3 could not run"
        }
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(path)'", entity: "Doc")
        defer { t.kill() }   // failed expectations may keep `t` alive
        #expect(t.wait(for: "│ Doc │ row 1/1"), "\(t.screen)")
        // Columns: name photo tags. The photo edits as hex.
        t.keys("l", "e")
        #expect(t.wait(for: "0x0102ab"), "\(t.screen)")
        #expect(t.screen.contains("photo: hex bytes"), "\(t.screen)")
        t.keys("C-u"); t.type("0x12 3"); t.keys("Enter")
        #expect(t.wait(for: "photo: odd number of hex digits (3)"), "\(t.screen)")
        #expect(t.screen.contains("0x12 3"), "the typed text stays in the editor: \(t.screen)")
        t.keys("C-u"); t.type("0a zz"); t.keys("Enter")
        #expect(t.wait(for: "photo: 'z' at position 4 is not a hex digit"), "\(t.screen)")
        #expect(sql("SELECT hex(photo) FROM Doc") == "0102AB")
        t.keys("C-u"); t.type("0a ff"); t.keys("Enter")
        #expect(t.wait(for: "saved photo"), "\(t.screen)")
        #expect(sql("SELECT hex(photo) FROM Doc") == "0AFF")
        // The tags edit as JSON text; an error names the attribute and the position.
        t.keys("l", "e")
        #expect(t.wait(for: "tags: JSON"), "\(t.screen)")
        t.keys("C-u"); t.type("{\"a\": 1,}"); t.keys("Enter")
        #expect(t.wait(for: "tags is not valid JSON at line 1, column 9"), "\(t.screen)")
        #expect(t.screen.contains("{\"a\": 1,}"), "\(t.screen)")
        #expect(sql("SELECT tags FROM Doc") == "[\"a\"]")
        t.keys("BSpace", "BSpace"); t.type("}"); t.keys("Enter")
        #expect(t.wait(for: "saved tags"), "\(t.screen)")
        #expect(sql("SELECT tags FROM Doc") == "{\"a\": 1}")
        // Empty on an optional attribute sets it to null.
        t.keys("e", "C-u", "Enter")
        #expect(t.wait { _ in sql("SELECT tags IS NULL FROM Doc") == "1" }, "\(t.screen)")
        #expect(t.wait { $0.contains("saved tags") && !$0.contains("Enter save") }, "\(t.screen)")
    }
}
