import Foundation
import Testing

/// The user's bindings file, read by the real binary from a temporary
/// XDG_CONFIG_HOME: good lines apply, a bad line is named on screen, and the
/// browser starts anyway.
@Suite("E2E key bindings file in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EKeyBindingsFileTests {
    @Test func aBindingsFileChangesKeysAndABadLineIsNamedWithoutStoppingTheBrowser() throws {
        let store = try E2EStore()
        let config = TempDir()
        try FileManager.default.createDirectory(atPath: config.path("vellum"), withIntermediateDirectories: true)
        let keys = config.path("vellum/keys")
        try "bind x delete\nbind Z nosuch\nunbind q\n".write(toFile: keys, atomically: true, encoding: .utf8)
        let t = Tmux("XDG_CONFIG_HOME='\(config.url.path)' \(store.command)", width: 220, height: 40)
        defer { t.kill() }   // failed expectations may keep `t` alive
        #expect(t.wait(for: "key bindings: \(keys) line 2: unknown command 'nosuch'"), "\(t.screen)")
        // The hint bar shows the keys as bound: q no longer quits, ^C still does; x deletes.
        #expect(t.screen.contains("^C quit") && !t.screen.contains("q quit"), "\(t.screen)")
        #expect(t.screen.contains("x delete") && !t.screen.contains("d delete"), "\(t.screen)")
        t.keys(":"); t.type("goto Product"); t.keys("Enter")
        #expect(t.wait(for: "│ Product │ row 1/"), "\(t.screen)")
        t.keys("x")
        #expect(t.wait(for: "delete this Product? y/n"), "\(t.screen)")
        t.keys("n")
        #expect(t.wait(for: "delete cancelled"), "\(t.screen)")
        t.keys("q")
        t.keys("?")
        #expect(t.wait(for: "delete the record"), "\(t.screen)")
        #expect(t.screen.contains("x d "), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait { !$0.contains("delete the record") }, "\(t.screen)")
        #expect(t.alive)
        t.keys("C-c")
        #expect(t.wait(10) { _ in !t.alive })
    }
}
