import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: column layout (hide, the list to bring back, move) kept between runs
/// outside the store, and jumps to a row with the jump list, at 80×24 and 120×40.
@Suite("E2E columns and jumps", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EColumnsAndJumpsTests {
    static let sizes = [(80, 24), (120, 40)]

    static let transactions = "SELECT count(*) FROM _vellum_transactions"

    /// A store and the browser command on it with a state directory of its own (where
    /// column layouts are kept), kept alive by the returned `TempDir`.
    func isolatedStore() throws -> (E2EStore, TempDir, String) {
        let store = try E2EStore()
        let state = TempDir()
        return (store, state, "XDG_STATE_HOME='\(state.url.path)' " + store.command)
    }

    /// The table's header line (the first screen line).
    func header(_ t: Tmux) -> String { String(t.screen.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }

    /// The header once it has stayed the same for half a second (the mouse acts on the
    /// frame drawn last, so the test reads its columns off a settled one).
    func settledHeader(_ t: Tmux) -> String {
        var last = header(t), since = Date()
        _ = t.wait { _ in
            let now = header(t)
            if now != last { (last, since) = (now, Date()) }
            return now.contains("price") && Date().timeIntervalSince(since) >= 0.5
        }
        return last
    }

    func position(_ name: String, _ line: String) -> Int {
        line.range(of: name).map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? -1
    }

    /// An X10 mouse report, as a terminal sends it (0-based cell).
    func mouse(_ button: Int, x: Int, y: Int) -> String {
        "\u{1B}[M" + String([32 + button, 33 + x, 33 + y].map { Character(Unicode.Scalar(UInt8($0))) })
    }

    @Test(arguments: sizes)
    func hiddenAndMovedColumnsAreKeptBetweenRunsOutsideTheStore(width: Int, height: Int) throws {
        let (store, state, command) = try isolatedStore()
        let before = store.sql(Self.transactions)
        do {
            let t = Tmux.browser(command, entity: "Product", width: width, height: height)
            defer { t.kill() }
            t.keys("l", "-")
            #expect(t.wait(for: "price hidden"), "\(t.screen)")
            #expect(!header(t).contains("price"), "\(t.screen)")
            t.keys("H")   // stock before name
            #expect(t.wait { _ in let h = header(t); return position("stock", h) >= 0 && position("stock", h) < position("name", h) }, "\(t.screen)")
            t.keys("q")
            #expect(t.wait { _ in !t.alive })
        }
        let files = (try? FileManager.default.contentsOfDirectory(atPath: state.path("vellum/columns"))) ?? []
        #expect(files.count == 1 && files.first?.hasPrefix("shop.sqlite-") == true, "\(files)")
        let t = Tmux.browser(command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "1 hidden (C)"), "\(t.screen)")
        let h = header(t)
        #expect(!h.contains("price") && position("stock", h) < position("name", h), "\(t.screen)")
        t.keys("C")
        #expect(t.wait(for: "Columns of Product"), "\(t.screen)")
        #expect(t.screen.contains("[ ] price"), "\(t.screen)")
        t.keys("j", "Space")   // the list is in table order, hidden ones in place: stock, price, name
        #expect(t.wait(for: "price shown"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait { _ in header(t).contains("price") && !t.screen.contains("Columns of") }, "\(t.screen)")
        // Nothing of this is in the store: no write, no table for it.
        #expect(store.sql(Self.transactions) == before)
        #expect(store.sql("SELECT count(*) FROM sqlite_master WHERE sql LIKE '%hidden%'") == "0")
    }

    /// Resize with the mouse: the gap after `name`'s title pressed and let go 6 cells to the
    /// right (X10 reports, as a terminal sends them); the width is kept for the next run.
    @Test(arguments: sizes)
    func aHeaderEdgeDraggedWithTheMouseResizesTheColumnForTheNextRunToo(width: Int, height: Int) throws {
        let (store, state, command) = try isolatedStore()
        defer { withExtendedLifetime(state) {} }   // layouts live there until the end
        let before = store.sql(Self.transactions)
        var moved = -1
        do {
            let t = Tmux.browser(command, entity: "Product", width: width, height: height)
            defer { t.kill() }
            let pressedOn = settledHeader(t)
            let price = position("price", pressedOn)
            #expect(price > 0, "\(t.screen)")
            t.type(mouse(0, x: price - 1, y: 0))       // pressed on the gap after name
            t.type(mouse(3, x: price + 5, y: 0))       // let go 6 cells to the right
            #expect(t.wait { _ in position("price", header(t)) == price + 6 }, "pressed at \(price - 1) of \(pressedOn)\n\(t.screen)")
            #expect(t.wait(for: "wide (< and >"), "\(t.screen)")
            moved = position("price", header(t))
            t.keys("q")
            #expect(t.wait { _ in !t.alive })
        }
        let t = Tmux.browser(command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait { _ in position("price", header(t)) == moved }, "the next run keeps the width: \(t.screen)")
        #expect(store.sql(Self.transactions) == before, "nothing is written to the store")
    }

    /// A quick drag, or a browser busy when the button goes up, hands it the press and the
    /// release in one read. ncurses kept only the release of such a pair, so the drag was
    /// lost (seen in CI: the suite's load made the browser read both at once).
    @Test(arguments: sizes)
    func aPressAndReleaseReadTogetherStillResizeTheColumn(width: Int, height: Int) throws {
        let (store, state, command) = try isolatedStore()
        defer { withExtendedLifetime((store, state)) {} }
        let t = Tmux.browser(command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        let pressedOn = settledHeader(t)
        let price = position("price", pressedOn)
        #expect(price > 0, "\(t.screen)")
        t.type(mouse(0, x: price - 1, y: 0) + mouse(3, x: price + 3, y: 0))   // one write: both reports
        #expect(t.wait { _ in position("price", header(t)) == price + 4 }, "pressed at \(price - 1) of \(pressedOn)\n\(t.screen)")
        #expect(t.wait(for: "wide (< and >"), "\(t.screen)")
    }

    /// The browser asks for SGR mouse reports (`CSI ?1006h`), whose coordinates are
    /// decimal: X10's one byte per coordinate cannot name a column past 222 and leaves
    /// ASCII past 94. `:mouse off` hands the mouse back, SGR included.
    @Test func mouseReportsAreSGRWhileCapturedAndOffAfterMouseOff() throws {
        let (store, state, command) = try isolatedStore()
        defer { withExtendedLifetime((store, state)) {} }
        let t = Tmux.browser(command, entity: "Product", width: 120, height: 40)
        defer { t.kill() }
        #expect(t.wait { _ in t.display("#{mouse_sgr_flag}") == "1" }, "\(t.display("#{mouse_sgr_flag} #{mouse_standard_flag}"))")
        #expect(t.display("#{mouse_standard_flag}") == "1")
        // A click in the detail pane past column 94 (on `stock`'s line) reaches it: Enter edits that field.
        let line = try #require(t.screen.split(separator: "\n").first { $0.contains("│ stock ") }.map(String.init))
        let row = try #require(t.screen.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("│ stock ") })
        let value = try #require(line.split(separator: " ").last.map(String.init))
        #expect(position("│ stock", line) < 95, "\(line)")
        t.type("\u{1B}[<0;100;\(row + 1)M\u{1B}[<0;100;\(row + 1)m")
        t.keys("Enter")
        #expect(t.wait { s in s.contains("Enter save") && s.contains("│\(value) ") }, "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait { s in !s.contains("Enter save") }, "\(t.screen)")
        t.keys(":"); t.type("mouse off"); t.keys("Enter")
        #expect(t.wait { _ in t.display("#{mouse_sgr_flag}") == "0" && t.display("#{mouse_standard_flag}") == "0" },
                "\(t.display("#{mouse_sgr_flag} #{mouse_standard_flag}"))")
    }

    @Test(arguments: sizes)
    func jumpToARowAndBackAndForward(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        t.type("150G")
        #expect(t.wait(for: "row 150/200"), "\(t.screen)")
        t.keys(":"); t.type("42"); t.keys("Enter")
        #expect(t.wait(for: "row 42/200"), "\(t.screen)")
        t.keys("[")
        #expect(t.wait(for: "row 150/200"), "\(t.screen)")
        t.keys("[")
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        t.keys("]")
        #expect(t.wait(for: "row 150/200"), "\(t.screen)")
        t.keys(":"); t.type("999"); t.keys("Enter")
        #expect(t.wait(for: "no row 999: the list has 200 rows"), "\(t.screen)")
    }

    /// `:id` with the URI `vellum query` prints goes to that record, here or in its entity.
    @Test(arguments: sizes)
    func jumpToARecordByItsID(width: Int, height: Int) throws {
        let store = try E2EStore()
        let query = try VellumBinary.run(["query", store.path, "Provider", "--format", "csv"])
        let uri = try #require(query.stdout.split(whereSeparator: \.isNewline).dropFirst().last.flatMap { $0.split(separator: ",").first }.map(String.init))
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "row 1/200"), "\(t.screen)")
        t.keys(":"); t.type("id p77"); t.keys("Enter")
        #expect(t.wait(for: "Product p77"), "\(t.screen)")
        t.keys(":"); t.type("id " + uri); t.keys("Enter")
        let key = try #require(uri.split(separator: "/").last)
        #expect(t.wait(for: "Provider \(key)"), "\(t.screen)")
        #expect(t.screen.contains("│ Provider"), "\(t.screen)")
        t.keys("BSpace")
        #expect(t.wait(for: "Product p77"), "\(t.screen)")
        t.keys(":"); t.type("id p4242"); t.keys("Enter")
        #expect(t.wait(for: "no Product p4242 in this store"), "\(t.screen)")
    }
}
