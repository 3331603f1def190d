import Foundation
import Testing

/// Issue 11, critical item 1: `:export` never writes over the open store or any
/// database, asks before replacing a file, and never leaves a partial file.
@Suite("E2E export in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EExportTests {
    func export(_ t: Tmux, _ argument: String) {
        t.keys(":"); t.type("export " + argument); t.keys("Enter")
    }

    /// Leftover temporary files of the safe writer in `dir`.
    func leftovers(_ dir: TempDir) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []).filter { $0.contains(".vellum-") }
    }

    @Test func exportRefusesTheOpenStore() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.commandInItsFolder, entity: "Task", width: 220)
        defer { t.kill() }
        let size = try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int
        // The same file by its own name, through `..`, and through a symlink.
        let dirName = store.dir.url.lastPathComponent
        try FileManager.default.createSymbolicLink(atPath: store.dir.path("link.csv"), withDestinationPath: store.path)
        for path in ["shop.sqlite", "../\(dirName)/shop.sqlite", "link.csv"] {
            export(t, "csv \(path)")
            #expect(t.wait(for: "export failed: \(path) is the open store; refusing"), "\(path)\n\(t.screen)")
        }
        // Its journal and any other SQLite database are refused too.
        let other = store.dir.path("other.db")
        #expect(store.sqlOn(other, "CREATE TABLE t(x); INSERT INTO t VALUES (1); SELECT count(*) FROM t") == "1")
        for path in ["other.db", "shop.sqlite-wal"] {
            export(t, "json \(path)")
            #expect(t.wait(for: "export failed: \(path) is a database; refusing"), "\(path)\n\(t.screen)")
        }
        #expect(store.sql("SELECT count(*) FROM Task") == "30")
        #expect(store.sql("PRAGMA integrity_check") == "ok")
        #expect(store.sqlOn(other, "SELECT count(*) FROM t") == "1")
        #expect((try FileManager.default.attributesOfItem(atPath: store.path)[.size] as? Int) == size)
        #expect(leftovers(store.dir).isEmpty)
    }

    @Test func exportAsksBeforeReplacingAFile() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.commandInItsFolder, entity: "Task", width: 220)
        defer { t.kill() }
        let out = "out.csv", outPath = store.dir.path(out)
        try "old\n".write(toFile: outPath, atomically: false, encoding: .utf8)
        for answer in ["Escape", "n"] {
            export(t, "csv \(out)")
            #expect(t.wait(for: "exists; replace it? y/n"), "\(t.screen)")
            t.keys(answer)
            #expect(t.wait(for: "export cancelled; \(out) left unchanged"), "\(t.screen)")
            #expect(try String(contentsOfFile: outPath, encoding: .utf8) == "old\n")
            // The key that answered the prompt did nothing else.
            #expect(t.screen.contains("│ Task │ row 1/30"), "\(t.screen)")
        }
        export(t, "csv \(out)")
        #expect(t.wait(for: "exists; replace it? y/n"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "exported 30 rows to \(out)"), "\(t.screen)")
        let text = try String(contentsOfFile: outPath, encoding: .utf8)
        #expect(text.hasPrefix("title,done,due,priority"), "\(text.prefix(200))")
        #expect(text.components(separatedBy: "\r\n").count == 32)
        // A new file is written without a question.
        export(t, "json new.json")
        #expect(t.wait(for: "exported 30 rows to new.json"), "\(t.screen)")
        #expect(FileManager.default.fileExists(atPath: store.dir.path("new.json")))
        #expect(leftovers(store.dir).isEmpty)
    }
}

extension E2EStore {
    /// The browser started in the store's folder, so paths in the test stay short.
    var commandInItsFolder: String { "cd '\(dir.url.path)' && '\(VellumBinary.url.path)' shop.sqlite" }

    func sqlOn(_ path: String, _ statement: String) -> String {
        (try? sqliteOutput(path, statement)) ?? "sqlite3 could not run"
    }
}
