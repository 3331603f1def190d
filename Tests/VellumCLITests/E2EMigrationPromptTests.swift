import Foundation
import Testing
import VellumStore

/// Issue 15: `vellum STORE --model NEW` on a store holding another model shows the plan
/// in words and asks. Yes migrates (with the backup) and opens; no or Esc leaves the file
/// byte for byte unchanged and exits with a message; a refused plan shows why. At 80x24 and 120x40.
@Suite("E2E migration prompt", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EMigrationPromptTests {
    static let sizes = [[80, 24], [120, 40]]

    /// The browser in tmux (80x24 unless told); after it exits, its status stays on the screen.
    static func browser(_ store: String, model: String, size: [Int] = [80, 24]) -> Tmux {
        Tmux("'\(VellumBinary.url.path)' '\(store)' --model '\(model)'; echo \"exit=$?\"; sleep 600", width: size[0], height: size[1])
    }

    static func files(_ dir: TempDir) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.url.path).sorted()
    }

    @Test(arguments: sizes)
    func yesMigratesWithABackupAndOpensTheBrowser(size: [Int]) throws {
        let dir = TempDir()
        let (store, model) = try MigrateCommandTests.makeStore(dir, people: 20)
        let t = Self.browser(store, model: model, size: size)
        defer { t.kill() }
        #expect(t.wait(for: "y: migrate (a backup is kept)"), "\(t.screen)")
        #expect(t.screen.contains("people.sqlite holds another model than new.json; migrate it?"), "\(t.screen)")
        #expect(t.screen.contains("Person (20 rows, rebuild)"), "\(t.screen)")
        #expect(t.screen.contains("attribute name renamed to fullName"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        t.keys(":"); t.type("goto Person"); t.keys("Enter")
        #expect(t.wait(for: "fullName"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(for: "exit=0"), "\(t.screen)")
        let oldHash = try MigrateCommandTests.oldModel().versionHash
        #expect(try sqliteScalar(store + ".before-" + oldHash, "SELECT count(*) FROM Pet WHERE owner IS NOT NULL") == "20")
        #expect(try sqliteScalar(store, "SELECT count(*) FROM Person_pets") == "20")
        #expect(try sqliteScalar(store, "SELECT value FROM _vellum_metadata WHERE key = 'modelHash'")
                == MigrateCommandTests.newModel().versionHash)
    }

    @Test(arguments: ["n", "Escape"], sizes)
    func noLeavesTheFileByteIdenticalAndExitsWithAMessage(key: String, size: [Int]) throws {
        let dir = TempDir()
        let (store, model) = try MigrateCommandTests.makeStore(dir, people: 20)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let filesBefore = try Self.files(dir)
        let t = Self.browser(store, model: model, size: size)
        defer { t.kill() }
        #expect(t.wait(for: "y: migrate (a backup is kept)"), "\(t.screen)")
        t.keys(key)
        #expect(t.wait(for: "exit=1"), "\(t.screen)")
        #expect(t.screen.contains("people.sqlite was not migrated and is unchanged"), "\(t.screen)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try Self.files(dir) == filesBefore)
    }

    @Test(arguments: sizes)
    func aRefusedPlanShowsWhyAndChangesNothing(size: [Int]) throws {
        let dir = TempDir()
        let (store, _) = try MigrateCommandTests.makeStore(dir, people: 5)
        let model = try MigrateCommandTests.writeRefusedModel(dir)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let filesBefore = try Self.files(dir)
        let t = Self.browser(store, model: model, size: size)
        defer { t.kill() }
        #expect(t.wait(for: "The plan cannot run; the store is left as it is"), "\(t.screen)")
        #expect(t.screen.contains("email is new, required and has no default"), "\(t.screen)")
        t.keys("y")   // not a way to run a refused plan
        #expect(t.wait(for: "exit=1"), "\(t.screen)")
        #expect(t.screen.contains("people.sqlite was not migrated (the plan cannot run)"), "\(t.screen)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try Self.files(dir) == filesBefore)
    }

    @Test func aStoreHoldingTheModelOpensWithoutAsking() throws {
        let dir = TempDir()
        let (store, _) = try MigrateCommandTests.makeStore(dir, people: 3)
        let same = dir.path("same.json")
        try MigrateCommandTests.oldModel().jsonData().write(to: URL(fileURLWithPath: same))
        let t = Self.browser(store, model: same)
        defer { t.kill() }
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        #expect(!t.screen.contains("migrate it?"))
        t.keys("q")
        #expect(t.wait(for: "exit=0"), "\(t.screen)")
    }
}
