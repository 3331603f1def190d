import Foundation
import Glibc
import Testing
import VellumStore

/// Issue #11, item 16: the browser and the terminal it runs in — job control,
/// terminals it cannot drive, non-UTF-8 locales, grapheme clusters, control
/// characters in values, and the terminal's colour palette.
@Suite("E2E terminal in tmux", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ETerminalTests {
    /// An interactive shell in tmux with a known prompt, in `dir`.
    static func shell(in dir: String, width: Int = 120, height: Int = 40) -> Tmux {
        let t = Tmux("cd '\(dir)' && exec bash --norc --noprofile -i", width: width, height: height)
        t.type("PS1='PRO''MPT$ '"); t.keys("Enter")   // the prompt, not the typed line, matches
        #expect(t.wait(for: "PROMPT$"), "\(t.screen)")
        return t
    }

    @Test func ctrlZSuspendsAndFgRedraws() throws {
        let store = try E2EStore()
        let t = Self.shell(in: store.dir.url.path)
        defer { t.kill() }
        t.type("clear; \(store.command)"); t.keys("Enter")
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        t.keys("C-z")
        // The shell has the terminal back: its job message and prompt, the browser gone.
        #expect(t.wait { $0.contains("Stopped") && $0.contains("PROMPT$") && !$0.contains("Entities") }, "\(t.screen)")
        t.type("fg"); t.keys("Enter")
        #expect(t.wait { $0.contains("Entities") && $0.contains("● live") && !$0.contains("PROMPT$") }, "\(t.screen)")
        // The browser takes keys again.
        t.keys(":"); t.type("goto Task"); t.keys("Enter")
        #expect(t.wait(for: "│ Task │ row 1/30"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait { $0.contains("PROMPT$") && !$0.contains("Entities") }, "\(t.screen)")
    }

    @Test func continuedAfterAnOutsideStopTheScreenIsRepainted() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Task")
        defer { t.kill() }
        let pid = t.display("#{pane_pid}"), tty = t.display("#{pane_tty}")
        #expect(Tmux.run("/bin/kill", ["-STOP", pid]).status == 0)
        // Something else draws over the screen while the browser is stopped.
        #expect(Tmux.run("/bin/sh", ["-c", "printf '\\033[2J\\033[HGARBAGE' > \(tty)"]).status == 0)
        #expect(t.wait(for: "GARBAGE"), "\(t.screen)")
        #expect(Tmux.run("/bin/kill", ["-CONT", pid]).status == 0)
        #expect(t.wait { !$0.contains("GARBAGE") && $0.contains("│ Task │ row 1/30") && $0.contains("Entities") }, "\(t.screen)")
    }

    @Test func dumbTerminalIsRefusedWithTheTerminalLeftIntact() throws {
        let store = try E2EStore()
        // A terminfo entry like xterm's but without cursor addressing, beside `dumb`.
        let terminfo = store.dir.path("terminfo")
        let source = store.dir.path("nocup.src")
        try "vellum-nocup|xterm without cursor addressing,\n\tuse=xterm,\n\tcup@,\n".write(toFile: source, atomically: true, encoding: .utf8)
        #expect(Tmux.run("/usr/bin/tic", ["-x", "-o", terminfo, source]).status == 0)
        let t = Self.shell(in: store.dir.url.path)
        defer { t.kill() }
        for term in ["dumb", "vellum-nocup"] {
            let raw = store.dir.path("\(term).raw")
            t.type("clear; a=$(stty -g); TERMINFO='\(terminfo)' TERM=\(term) script -q -e -c \"\(store.command)\" '\(raw)'; "
                + "echo \"exit=$?\"; [ \"$a\" = \"$(stty -g)\" ] && echo TTY-UN''CHANGED-\(term)")
            t.keys("Enter")
            // Each run says its own name, so a stale screen cannot pass for the next one.
            #expect(t.wait(for: "TTY-UNCHANGED-\(term)"), "\(term): \(t.screen)")
            #expect(t.screen.contains("exit=1"), "\(term): \(t.screen)")
            #expect(t.screen.contains("cannot move the cursor"), "\(term): \(t.screen)")
            // Nothing but the message reached the terminal: no escape sequence at all.
            let bytes = try Data(contentsOf: URL(fileURLWithPath: raw))
            #expect(!bytes.contains(0x1B), "\(term): \(String(decoding: bytes, as: UTF8.self))")
        }
    }

    @Test func asciiGlyphsWithoutAUTF8Locale() throws {
        let store = try TerminalTextStore()
        let t = Tmux("LC_ALL=C LANG=C \(store.command)")
        defer { t.kill() }
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        #expect(t.wait(for: "| Note | row 1/\(TerminalTextStore.titles.count) |"), "\(t.screen)")
        let screen = t.screen
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII }, "\(screen)")
        #expect(!screen.contains("M-"), "\(screen)")            // no byte shown as a meta key
        #expect(screen.contains("title ^"), "\(screen)")       // the sort marker
        #expect(screen.contains("tab>here"), "\(screen)")      // the tab marker
        #expect(screen.contains("|title "), "\(screen)")       // the sidebar border
    }

    @Test func graphemeClustersAreDrawnWholeAndRowsStayIntact() throws {
        let store = try TerminalTextStore()
        let t = Tmux("LC_ALL=C.UTF-8 \(store.command)", width: 100, height: 20)
        defer { t.kill() }
        let count = TerminalTextStore.titles.count
        #expect(t.wait(for: "row 1/\(count) │"), "\(t.screen)")
        // Select each row in turn so the detail pane and status bar show every value.
        for row in 1...count {
            if row > 1 { t.keys("j") }
            #expect(t.wait(for: "row \(row)/\(count) │"), "\(t.screen)")
            checkRows(t.screen, count: count, statusRow: row)
        }
    }

    /// Every byte the browser wrote to a 256-colour xterm (no direct colour)
    /// from its start to `q`, recorded by `script`.
    static func rawOutput(of store: E2EStore, environment: String = "", arguments: String = "") -> String {
        let raw = store.dir.path("out.raw")
        let t = Tmux("env -u COLORTERM -u NO_COLOR TERM=xterm-256color \(environment) script -q -c \"\(store.command) \(arguments)\" '\(raw)'; sleep 60")
        defer { t.kill() }
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        t.keys("q")
        #expect(t.wait { !$0.contains("Entities") }, "\(t.screen)")
        return typescript(raw)
    }

    /// The bytes `script` wrote to `path`, once it has finished writing them.
    static func typescript(_ path: String) -> String {
        let deadline = Date().addingTimeInterval(20)
        var text = ""
        repeat {
            text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if text.contains("Script done") { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return text
    }

    /// Every row's columns and dividers sit where the header's do (as the
    /// terminal places them), each value is drawn whole, and the status bar
    /// carries nothing of them.
    private func checkRows(_ screen: String, count: Int, statusRow: Int) {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.count >= count + 2 else { Issue.record("short screen: \(screen)"); return }
        let header = TerminalColumns(lines[0])
        // The plain ASCII row says where the n column is.
        guard let sidebar = header.column(of: "│"), let divider = header.column(ofLast: "│"),
              let plain = lines.first(where: { $0.contains("│plain ascii end ") }),
              let nColumn = TerminalColumns(plain).column(of: "1", after: sidebar) else {
            Issue.record("no header or plain row: \(screen)"); return
        }
        for title in TerminalTextStore.titles {
            let drawn = TerminalTextStore.drawn(title)
            guard let line = lines.dropFirst().first(where: { $0.contains("│" + drawn + " ") }) else {
                Issue.record("\(title.debugDescription) is not drawn whole as \(drawn.debugDescription):\n\(screen)")
                continue
            }
            let columns = TerminalColumns(line)
            #expect(columns.column(ofLast: "│") == divider, "divider moved in \(line.debugDescription)")
            #expect(columns.column(of: "1", after: sidebar) == nColumn, "n column moved in \(line.debugDescription)")
        }
        let status = lines[lines.count - 3]
        #expect(status == " notes.vellum │ Note │ row \(statusRow)/\(count) │ ● live", "\(status.debugDescription)")
    }

    @Test func defaultThemeLeavesThePaletteAlone() throws {
        let store = try E2EStore()
        let output = Self.rawOutput(of: store)
        #expect(output.contains("\u{1B}[38;5;"), "the theme's colours are drawn as palette indices")
        #expect(!output.contains("\u{1B}]4;"), "the palette was redefined (OSC 4)")
        #expect(!output.contains("\u{1B}]104"), "the palette was reset (OSC 104)")
    }

    @Test func exactColourThemeRestoresOnlyTheColoursItChanged() throws {
        let store = try E2EStore()
        let themes = store.dir.path("themes")
        try FileManager.default.createDirectory(atPath: themes, withIntermediateDirectories: true)
        try "name = Exact\ninherits = default\nexact-colors = true\n[palette]\nheader = #123456\n"
            .write(toFile: themes + "/exact.theme", atomically: true, encoding: .utf8)
        let output = Self.rawOutput(of: store, environment: "VELLUM_THEMES_DIR='\(themes)'", arguments: "--theme exact")
        let redefinitions = output.components(separatedBy: "\u{1B}]4;").dropFirst()
            .map { $0.prefix(while: { $0 != "\u{1B}" && $0 != "\u{7}" }).uppercased() }
        // Slots set while drawing, then the same slots (and no others) put back on exit.
        let set = redefinitions.prefix(redefinitions.count / 2), restored = redefinitions.suffix(redefinitions.count / 2)
        func slots(_ list: ArraySlice<String>) -> Set<Substring> { Set(list.map { $0.prefix { $0 != ";" } }) }
        #expect(redefinitions.count % 2 == 0 && !set.isEmpty && slots(set) == slots(restored), "\(redefinitions)")
        #expect(slots(set).allSatisfy { Int($0).map { $0 >= 16 } ?? false }, "the 16 ANSI colours are never redefined")
        // #123456 went into the top slot; xterm's default there is #eeeeee.
        #expect(set.contains("255;RGB:12/34/56") && restored.contains("255;RGB:EE/EE/EE"), "\(redefinitions)")
        #expect(!output.contains("\u{1B}]104"), "the whole palette was reset (OSC 104)")
    }
}

/// A store whose `Note.title` values hold grapheme clusters and control
/// characters, each row with `n = 1`.
final class TerminalTextStore {
    static let titles = [
        "family 👨‍👩‍👧 end", "thumb 👍🏽 end", "flag 🇩🇪 end", "accent e\u{301} end", "heart ❤️ end",
        "rainbow 🏳️‍🌈 end", "tab\there end", "cjk 漢字 end", "devanagari नि end", "plain ascii end",
    ]

    /// How a title is drawn: the parts of a ZWJ sequence side by side (terminals
    /// disagree on joining them), a tab as `⇥`.
    static func drawn(_ title: String) -> String {
        String(String.UnicodeScalarView(title.unicodeScalars.filter { $0.value != 0x200D }))
            .replacingOccurrences(of: "\t", with: "⇥")
    }

    let dir = TempDir()
    let path: String

    init() throws {
        path = dir.path("notes.vellum")
        let model = try ModelBuilder()
            .entity("Note") {
                $0.attribute("title", .string)
                $0.attribute("n", .integer64)
            }
            .build()
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: model)
        let context = try ManagedObjectContext(store: store)
        for title in Self.titles {
            _ = try context.insert("Note", values: ["title": .string(title), "n": .integer(1)])
        }
        _ = try context.save()
    }

    var command: String { "'\(VellumBinary.url.path)' '\(path)'" }
}

/// Cell columns of a captured line as tmux places them: the C library's
/// `wcwidth` per scalar (UTF-8 tables), zero-width scalars join the cell
/// before them, and so does the scalar after a zero width joiner.
struct TerminalColumns {
    private(set) var cells: [(scalar: Unicode.Scalar, column: Int)] = []

    init(_ line: String) {
        var column = 0
        var joinNext = false
        for scalar in line.unicodeScalars {
            let width = joinNext ? 0 : Self.wcwidth(scalar)
            joinNext = scalar.value == 0x200D
            if width > 0 {
                cells.append((scalar, column))
                column += width
            }
        }
    }

    func column(of character: Unicode.Scalar, after start: Int = -1) -> Int? {
        cells.first { $0.scalar == character && $0.column > start }?.column
    }
    func column(ofLast character: Unicode.Scalar) -> Int? { cells.last { $0.scalar == character }?.column }

    /// Read-only after its first use; a locale object is safe to use from any thread.
    nonisolated(unsafe) private static let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil)

    static func wcwidth(_ scalar: Unicode.Scalar) -> Int {
        let previous = uselocale(utf8)
        defer { uselocale(previous) }
        return Int(c_wcwidth(wchar_t(scalar.value)))
    }
}

/// The C library's wcwidth (Glibc's module map leaves it out).
@_silgen_name("wcwidth")
private func c_wcwidth(_ character: wchar_t) -> Int32
