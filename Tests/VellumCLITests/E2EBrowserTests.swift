import Foundation
import Testing
import VellumApp
import VellumStore

/// A demo store in a temp dir, queried with the sqlite3 shell.
final class E2EStore {
    let dir = TempDir()
    let path: String

    init() throws {
        path = dir.path("shop.sqlite")
        try DemoStore.create(at: URL(fileURLWithPath: path))
    }

    func sql(_ statement: String) -> String {
        (try? sqliteOutput(path, statement)) ?? "sqlite3 could not run"
    }

    var command: String { "'\(VellumBinary.url.path)' '\(path)'" }
}

@Suite("E2E browser in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EBrowserTests {
    /// Opens the store and goes to `entity`; waits until its rows show.
    func open(_ store: E2EStore, entity: String? = nil) -> Tmux {
        if let entity { return Tmux.browser(store.command, entity: entity) }
        let t = Tmux(store.command)
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        return t
    }

    @Test func browseShowsEntitiesAndRows() throws {
        let store = try E2EStore()
        let t = open(store)
        defer { t.kill() }   // failed expectations may keep `t` alive
        #expect(t.wait(for: "Product        200"), "\(t.screen)")
        #expect(t.screen.contains("Task            30"))
        t.keys(":"); t.type("goto Product"); t.keys("Enter")
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        #expect(t.screen.contains("Classic Amber Necklace"))
        #expect(t.screen.contains("name ▲"))
        t.keys("q")
        #expect(t.wait(3) { _ in !t.alive })
    }

    @Test func editSavesAndBadInputIsRefused() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        // Columns: title done due priority; first row by title.
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "3")
        t.keys("l", "l", "l", "e", "C-u"); t.type("abc"); t.keys("Enter")
        #expect(t.wait(for: "'abc' is not an integer"), "\(t.screen)")
        t.keys("C-u"); t.type("9"); t.keys("Enter")
        #expect(t.wait(for: "value must be at most 5"), "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "3")
        t.keys("C-u"); t.type("4"); t.keys("Enter")
        #expect(t.wait(for: "saved priority"), "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "4")
        // Esc cancels without writing.
        t.keys("e", "C-u"); t.type("1"); t.keys("Escape")
        #expect(t.wait(for: "edit cancelled"), "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "4")
    }

    @Test func filterAndSort() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        t.keys("/"); t.type("priority >")
        #expect(t.wait(for: "^ expected"), "\(t.screen)")
        t.type(" 4"); t.keys("Enter")
        #expect(t.wait(for: "filter: priority > 4"), "\(t.screen)")
        #expect(t.screen.contains("row 1/6"), "\(t.screen)")
        t.keys("/", "C-u", "Enter")
        #expect(t.wait(for: "/30 │"), "\(t.screen)")   // the cursor stays on its record
        t.keys("l", "l", "l", "S")
        #expect(t.wait(for: "sort: priority ▼"), "\(t.screen)")
        #expect(t.screen.contains("priority ▼"))
        let firstRow = t.screen.split(separator: "\n")[1]
        #expect(firstRow.contains("   5 "), "\(firstRow)")
    }

    @Test func addDeleteUndoRedo() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        t.keys("a")
        #expect(t.wait(for: "added a Task"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task") == "31")
        #expect(t.screen.contains("row") && t.screen.contains("/31"))
        t.keys("u")
        #expect(t.wait(for: "undid add Task"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task") == "30")
        t.keys("C-r")
        #expect(t.wait(for: "redid add Task"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task") == "31")
        t.keys("g", "d")
        #expect(t.wait(for: "y/n"), "\(t.screen)")
        t.keys("y")
        #expect(t.wait(for: "deleted"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task") == "30")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Audit inventory #1'") == "0")
        t.keys("u")
        #expect(t.wait(for: "undid delete"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Audit inventory #1'") == "1")
        // An edit undone after it was saved.
        t.keys("g", "e", "C-u"); t.type("Zebra"); t.keys("Enter")
        #expect(t.wait(for: "saved title"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Zebra'") == "1")
        t.keys("u")
        #expect(t.wait(for: "undid edit title"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Zebra'") == "0")
    }

    @Test func relationshipNavigation() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Product")
        defer { t.kill() }   // failed expectations may keep `t` alive
        // Detail fields: name price stock sku updated provider images.
        t.keys("Tab", "j", "j", "j", "j", "j")
        #expect(t.wait(for: "Enter follow/edit"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "│ Provider │ row"), "\(t.screen)")
        #expect(t.screen.contains("provider of Classic Amber Necklace"), "\(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "│ Product │ row 1/200"), "\(t.screen)")
        // To-many: a provider's products, filtered.
        t.keys(":"); t.type("goto Provider"); t.keys("Enter")
        #expect(t.wait(for: "│ Provider │ row 1/10"), "\(t.screen)")
        let provider = store.sql("SELECT name FROM Provider ORDER BY name LIMIT 1")
        let count = store.sql("SELECT count(*) FROM Product p JOIN Provider v ON p.provider = v._pk WHERE v.name = '\(provider.replacingOccurrences(of: "'", with: "''"))'")
        t.keys("Tab", "j", "j", "Enter")
        #expect(t.wait(for: "Product (products of \(provider))"), "\(t.screen)")
        #expect(t.screen.contains("row 1/\(count)"), "\(count) \(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "│ Provider │ row 1/10"), "\(t.screen)")
        // The to-one picker: E2EBrowserSafetyTests.pickerSearchThenEnterSetsTheFirstMatch.
    }

    @Test func resizeThemeAndHelp() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Product")
        defer { t.kill() }   // failed expectations may keep `t` alive
        _ = t.tmux(["resize-window", "-t", t.name, "-x", "80", "-y", "24"])
        #expect(t.wait { s in s.split(separator: "\n").count <= 24 && s.contains("row 1/200") }, "\(t.screen)")
        _ = t.tmux(["resize-window", "-t", t.name, "-x", "40", "-y", "10"])
        #expect(t.wait(for: "Terminal too small"), "\(t.screen)")
        _ = t.tmux(["resize-window", "-t", t.name, "-x", "120", "-y", "40"])
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        t.keys(":"); t.type("theme light"); t.keys("Enter")
        #expect(t.wait(for: "theme light"), "\(t.screen)")
        t.keys(":"); t.type("theme nosuchtheme"); t.keys("Enter")
        #expect(t.wait(for: "theme:"), "\(t.screen)")
        t.keys("?")
        #expect(t.wait(for: "Line editor"), "\(t.screen)")
        #expect(t.screen.contains("undo last edit"))
        t.keys("x")
        #expect(t.wait { !$0.contains("Line editor") }, "\(t.screen)")
    }

    @Test func rowInsertedByTheSqliteShellAppears() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        let before = Date()
        _ = store.sql("INSERT INTO Task (_entity, title, priority, done) VALUES ('Task', 'AAA from the shell', 2, 0)")
        #expect(t.wait(2, until: { $0.contains("AAA from the shell") }), "\(t.screen)")
        #expect(Date().timeIntervalSince(before) < 2)
        // It flashes in the theme's highlight role for about a second, then looks like any row.
        func styledLine() -> String { t.tmux(["capture-pane", "-e", "-p", "-t", t.name]).out.split(separator: "\n").first { $0.contains("AAA from the shell") }.map(String.init) ?? "" }
        // The attributes set between the cell's border and its text: tmux writes them as one
        // SGR sequence or several, and a plain cell may still reset the border's colour.
        func cellStyle() -> String {
            let line = styledLine()
            guard let match = line.range(of: "│(\u{1b}\\[[0-9;]*m)*AAA from the shell", options: .regularExpression) else { return "no cell" }
            return String(line[match]).replacingOccurrences(of: "AAA from the shell", with: "")
        }
        /// Bold, underline, reverse or a background among the SGR parameters (with colours
        /// the highlight role sets a background; without, bold and underline).
        func highlighted(_ style: String) -> Bool {
            for sequence in style.split(whereSeparator: { "\u{1b}[m│".contains($0) }) {
                var parameters = sequence.split(separator: ";").compactMap { Int($0) }[...]
                while let p = parameters.popFirst() {
                    if [1, 4, 7, 48].contains(p) || (40...47).contains(p) || (100...107).contains(p) { return true }
                    // A foreground colour's own numbers (`38;5;N`, `38;2;R;G;B`) are not attributes.
                    if p == 38 { parameters = parameters.dropFirst(parameters.first == 2 ? 4 : 2) }
                }
            }
            return false
        }
        #expect(highlighted(cellStyle()), "\(styledLine())")
        #expect(t.wait(3) { _ in let style = cellStyle(); return style != "no cell" && !highlighted(style) }, "\(styledLine())")
        #expect(t.wait(for: "Task            31"), "\(t.screen)")
        #expect(t.screen.contains("another process") || t.screen.contains("● live"))
        _ = store.sql("DELETE FROM Task WHERE title = 'AAA from the shell'")
        #expect(t.wait(2, until: { !$0.contains("AAA from the shell") }), "\(t.screen)")
        #expect(t.wait(for: "Task            30"), "\(t.screen)")
    }

    @Test func conflictPromptWhenTheRowChangesUnderTheEditor() throws {
        let store = try E2EStore()
        let t = open(store, entity: "Task")
        defer { t.kill() }   // failed expectations may keep `t` alive
        t.keys("l", "l", "l", "e", "C-u"); t.type("5")
        #expect(t.wait(for: "Enter save"), "\(t.screen)")
        Thread.sleep(forTimeInterval: 0.3)   // let the app take every key before the row changes
        _ = store.sql("UPDATE Task SET priority = 1, _version = _version + 1 WHERE title = 'Audit inventory #1'")
        // The editor says so and stays open (keys typed now are still text); Enter asks.
        #expect(t.wait(for: "set priority to 1"), "\(t.screen)")
        #expect(t.screen.contains("Enter save: asks keep mine or take theirs"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        #expect(t.screen.contains("mine:   5"))
        #expect(t.screen.contains("theirs: 1"))
        // Take theirs: nothing of mine is written.
        t.keys("t")
        #expect(t.wait(for: "kept their priority"), "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "1")
        // Again, keeping mine this time.
        t.keys("e", "C-u"); t.type("5")
        Thread.sleep(forTimeInterval: 0.3)
        _ = store.sql("UPDATE Task SET priority = 2, _version = _version + 1 WHERE title = 'Audit inventory #1'")
        #expect(t.wait(for: "set priority to 2"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "Conflict: priority was changed"), "\(t.screen)")
        t.keys("m")
        #expect(t.wait(for: "kept mine"), "\(t.screen)")
        #expect(store.sql("SELECT priority FROM Task WHERE title = 'Audit inventory #1'") == "5")
        // Deleted underneath: the typed text survives and can be re-added.
        t.keys("h", "h", "h", "e", "C-u"); t.type("Mine again")
        #expect(t.wait(for: "Mine again"), "\(t.screen)")
        _ = store.sql("DELETE FROM Task WHERE title = 'Audit inventory #1'")
        #expect(t.wait(for: "deleted this record"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "this record was deleted"), "\(t.screen)")
        #expect(t.screen.contains("mine:   Mine again"))
        t.keys("m")
        #expect(t.wait(for: "re-added"), "\(t.screen)")
        #expect(store.sql("SELECT count(*) FROM Task WHERE title = 'Mine again'") == "1")
    }

    /// Runs vellum from a shell in the pane, so the screen after exit can be checked.
    func shellSession(_ store: E2EStore) -> (Tmux, String) {
        let pidFile = store.dir.path("vellum.pid")
        let t = Tmux("env PS1='$ ' sh")
        t.wait(for: "$")
        t.type("sh -c 'echo $$ > \(pidFile); exec \(store.command)'; echo \"rc=$?\"")
        t.keys("Enter")
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        #expect(t.display("#{alternate_on}") == "1")
        return (t, pidFile)
    }

    @Test func terminalRestoredAfterQuit() throws {
        let store = try E2EStore()
        let (t, _) = shellSession(store)
        defer { t.kill() }
        t.keys("q")
        #expect(t.wait(for: "rc=0"), "\(t.screen)")
        #expect(t.display("#{alternate_on}") == "0")
        #expect(!t.screen.contains("Entities"))
        t.kill()
    }

    @Test func terminalRestoredAfterSIGTERM() throws {
        let store = try E2EStore()
        let (t, pidFile) = shellSession(store)
        defer { t.kill() }
        let pid = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(Foundation.kill(pid, SIGTERM) == 0)
        #expect(t.wait(for: "rc=143"), "\(t.screen)")
        #expect(t.display("#{alternate_on}") == "0")
        #expect(!t.screen.contains("Entities"))
        t.kill()
    }

    @Test func demoShowsTheOtherWriterAndStopsIt() throws {
        let dir = TempDir()
        let t = Tmux("XDG_DATA_HOME='\(dir.url.path)' '\(VellumBinary.url.path)' demo")
        defer { t.kill() }
        #expect(t.wait(for: "Entities", 10), "\(t.screen)")
        #expect(t.wait(for: "● live · demo-writer", 10), "\(t.screen)")
        t.keys("q")
        #expect(t.wait(3) { _ in !t.alive })
        let store = dir.path("vellum/demo.sqlite")
        // The writer exits with the browser: the store stops changing.
        Thread.sleep(forTimeInterval: 0.5)
        let before = (try? sqliteOutput(store, "SELECT count(*) FROM _vellum_transactions")) ?? "sqlite3 could not run"
        Thread.sleep(forTimeInterval: 1.6)
        let after = (try? sqliteOutput(store, "SELECT count(*) FROM _vellum_transactions")) ?? "sqlite3 could not run"
        #expect(before == after)
    }

    @Test func clearErrorsOutsideTheBrowser() throws {
        let dir = TempDir()
        let missing = try VellumBinary.run([dir.path("missing.sqlite")])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file"), "\(missing.stderr)")
        let text = dir.path("notes.txt")
        try "hello".write(toFile: text, atomically: true, encoding: .utf8)
        let notStore = try VellumBinary.run([text])
        #expect(notStore.status == 1)
        #expect(notStore.stderr.contains("not a database") || notStore.stderr.contains("not a Vellum store"), "\(notStore.stderr)")
        let store = try E2EStore()
        let noTTY = try VellumBinary.run([store.path])
        #expect(noTTY.status == 1)
        #expect(noTTY.stderr.contains("terminal"), "\(noTTY.stderr)")
        // Too small: the message stays on the normal screen after exit.
        let t = Tmux("env PS1='$ ' sh", width: 50, height: 10)
        defer { t.kill() }
        t.wait(for: "$")
        t.type("\(store.command); echo \"rc=$?\""); t.keys("Enter")
        #expect(t.wait(for: "rc=1"), "\(t.screen)")
        #expect(t.screen.contains("too small"), "\(t.screen)")
        t.kill()
    }
}
