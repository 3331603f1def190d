import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// Issue 17, "first minutes": the hint bar always says how to get help and quit,
/// status messages go when no longer true (`:messages` keeps them), and the demo
/// opens on Products with a welcome line.
@MainActor @Suite struct FirstMinutesTests {
    static let sizes = [TerminalSize(rows: 24, columns: 80), TerminalSize(rows: 40, columns: 120)]

    func session(_ size: TerminalSize, opening: String? = "Product") throws -> BrowserSession {
        let session = BrowserSession(container: try SessionTests.open(try SessionTests.makeStore()), opening: opening)
        session.setLayout(Layout(size: size))
        return session
    }

    func screen(_ s: BrowserSession) -> [String] {
        let model = ViewModel.build(state: s.state, layout: s.state.layout!, fileName: "shop.sqlite", entity: s.entity,
                                    rows: s.rows, entityCounts: s.entityCounts, relatedCounts: s.relatedCounts, pendingWrites: 0)
        let buffer = CellBuffer(size: model.layout.size)
        let theme = ThemeLoader(builtInDirectories: [], userDirectory: nil).loadWithFallback(named: "default", capability: .none).0
        Renderer.draw(model, theme: theme, on: buffer)
        return buffer.lines
    }

    func type(_ text: String, into s: BrowserSession) async {
        for c in text { await s.handle(c == "\r" ? .enter : .char(c)) }
    }

    // MARK: The hint bar

    /// At 80 and 120 columns the bar was cut at the screen's edge before `? help  q quit`.
    @Test func theHintBarEndsWithHelpAndQuitAtEveryWidth() throws {
        for size in Self.sizes {
            let s = try session(size)
            let bar = screen(s)[size.rows - 1].trimmingCharacters(in: .whitespaces)
            #expect(bar.hasSuffix("? help  q quit"), "\(size.columns): \(bar)")
            #expect(bar.hasPrefix("j/k move  "), "\(size.columns): \(bar)")
        }
        for width in [20, 40, 60, 80, 100, 120, 200] {
            let hint = KeyMap.defaults.hint(width: width)
            #expect(hint.hasSuffix("? help  q quit"), "\(width): \(hint)")
            #expect(DisplayWidth.of(hint) <= max(width, DisplayWidth.of("? help  q quit")), "\(width): \(hint)")
        }
    }

    /// Less important hints give way first (focus, summary…), the order of the rest stays.
    @Test func narrowBarsDropTheLeastImportantHintsFirst() {
        let at80 = KeyMap.defaults.hint(width: 79)
        #expect(!at80.contains("Tab focus") && !at80.contains("F summary"))
        #expect(at80.hasPrefix("j/k move  ") && at80.contains("Enter open/edit  / filter"))
        #expect(KeyMap.defaults.hint(width: 30) == "j/k move  ? help  q quit")
        #expect(KeyMap.defaults.hint(width: 1000) == KeyMap.defaults.hint)
    }

    /// The pinned hints name the keys bound to help and quit, the user's first.
    @Test func thePinnedHintsNameTheBoundKeys() {
        var keys = KeyMap.defaults
        keys.bind(.function(1), to: "help")
        keys.unbind(.char("q"))
        #expect(keys.hint(width: 40).hasSuffix("F1 help  ^C quit"))
        keys.unbind(.ctrl("c"))
        #expect(keys.hint(width: 40).hasSuffix("F1 help"))
    }

    // MARK: Status messages expire

    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product"]
        s.columnNames = ["name", "price"]
        s.rowCount = 10
        return s
    }

    /// #17 "status messages expire when no longer true (after navigation, after the
    /// next successful command)": the clock takes nothing away (it used to after 5 s);
    /// the next move or command in the list does, before it runs, and what it says
    /// stays in turn. A key bound to nothing leaves the message.
    @Test func statusMessagesExpireWhenNoLongerTrue() {
        var s = state()
        let t0 = Date(timeIntervalSinceReferenceDate: 1000)
        s.setStatus("exported 10 rows to /tmp/p.csv")
        _ = Reducer.reduce(&s, .tick(t0))
        _ = Reducer.reduce(&s, .tick(t0.addingTimeInterval(3600)))
        #expect(s.statusMessage == "exported 10 rows to /tmp/p.csv")
        _ = Reducer.reduce(&s, .key(.char("Q")))
        #expect(s.statusMessage == "exported 10 rows to /tmp/p.csv", "a key bound to nothing is not a move")
        _ = Reducer.reduce(&s, .key(.char("j")))
        #expect(s.statusMessage == nil && s.cursorRow == 1)
        // A command's own message stays after it; the next command takes it.
        _ = Reducer.reduce(&s, .key(.char("d")))
        _ = Reducer.reduce(&s, .key(.char("n")))
        #expect(s.statusMessage == "delete cancelled")
        _ = Reducer.reduce(&s, .key(.char("l")))
        #expect(s.statusMessage == nil && s.cursorColumn == 1)
        // A count-prefixed jump is a move too, and so is the mouse wheel.
        s.setStatus("theme dark")
        _ = Reducer.reduce(&s, .key(.char("3")))
        #expect(s.statusMessage == "3 — G goes to row 3", "the count says what it will do")
        _ = Reducer.reduce(&s, .key(.char("G")))
        #expect(s.statusMessage == nil && s.cursorRow == 2)
        s.setStatus("theme light")
        s.layout = Layout(size: TerminalSize(rows: 24, columns: 80))
        _ = Reducer.reduce(&s, .key(.mouse(MouseEvent(.wheelDown, x: 40, y: 5))))
        #expect(s.statusMessage == nil)
        // Work under way keeps its message through moves until it ends.
        s.setStatus("saving price…")
        _ = Reducer.reduce(&s, .key(.char("k")))
        #expect(s.statusMessage == "saving price…")
    }

    /// Errors stay whatever the clock says, until the next key; so does work under way
    /// until it ends, and a message under an open question.
    @Test func errorsStayUntilTheNextKeyAndProgressUntilItEnds() {
        var s = state()
        let t0 = Date(timeIntervalSinceReferenceDate: 1000)
        s.setStatus("nothing to delete", error: true)
        _ = Reducer.reduce(&s, .tick(t0))
        _ = Reducer.reduce(&s, .tick(t0.addingTimeInterval(3600)))
        #expect(s.statusMessage == "nothing to delete" && s.statusIsError)
        _ = Reducer.reduce(&s, .key(.char("j")))
        #expect(s.statusMessage == nil)
        // The key that fails again says so again.
        s.rowCount = 0
        _ = Reducer.reduce(&s, .key(.char("d")))
        #expect(s.statusMessage == "nothing to delete" && s.statusIsError)
        s.setStatus("saving price…")
        #expect(s.statusKind == .progress)
        s.setStatus("sorting" + Reducer.cancelHint)
        #expect(s.statusKind == .progress)
        _ = Reducer.reduce(&s, .tick(t0))
        _ = Reducer.reduce(&s, .tick(t0.addingTimeInterval(60)))
        #expect(s.statusMessage == "sorting" + Reducer.cancelHint)
        s.setStatus("delete this Product? y/n")
        s.mode = .confirmDelete
        _ = Reducer.reduce(&s, .tick(t0.addingTimeInterval(61)))
        _ = Reducer.reduce(&s, .tick(t0.addingTimeInterval(120)))
        #expect(s.statusMessage == "delete this Product? y/n")
    }

    /// In the real session the clock leaves a message on screen and a move takes it off.
    @Test func aMessageStaysOnScreenUntilTheNextMove() async throws {
        let s = try session(Self.sizes[0])
        let t0 = Date()
        s.setStatus("exported 200 rows")
        _ = s.tick(now: t0)
        s.needsRedraw = false
        #expect(!s.tick(now: t0.addingTimeInterval(60)))
        #expect(screen(s)[Self.sizes[0].rows - 2].contains("exported"))
        await s.handle(.char("j"))
        #expect(s.state.statusMessage == nil)
        #expect(!screen(s)[Self.sizes[0].rows - 2].contains("exported"))
    }

    // MARK: :messages

    /// Every message is kept with the time the loop's clock first showed it (errors
    /// marked, repeats once, at most `messageLimit`); `:messages` lists them and Esc closes.
    @Test func messagesListsTheLastStatusMessagesWithTheirTimes() async throws {
        let s = try session(Self.sizes[0])
        let t0 = Date(timeIntervalSinceReferenceDate: 1000)
        _ = s.tick(now: t0)
        await type(":sort title sideways\r", into: s)
        await s.handle(.escape)
        _ = s.tick(now: t0.addingTimeInterval(2))
        s.setStatus("theme dark")
        s.setStatus("theme dark")
        _ = s.tick(now: t0.addingTimeInterval(3))
        let kept = s.state.messages.suffix(2)
        #expect(kept.first?.text.hasPrefix("sort: ") == true && kept.last?.text == "theme dark", "\(kept)")
        #expect(kept.first?.isError == true && kept.first?.time == t0.addingTimeInterval(2))
        #expect(kept.last?.isError == false && kept.last?.time == t0.addingTimeInterval(3))
        await type(":messages\r", into: s)
        #expect(s.state.mode == .messages)
        let shown = screen(s).joined(separator: "\n")
        #expect(shown.contains("Messages") && shown.contains("theme dark") && shown.contains(" error "))
        await s.handle(.escape)
        #expect(s.state.mode == .browse)
        var st = state()
        for i in 0..<(AppState.messageLimit + 5) { st.setStatus("message \(i)") }
        #expect(st.messages.count == AppState.messageLimit && st.messages.last?.text == "message \(AppState.messageLimit + 4)")
    }

    /// A message too long for the status line is wrapped whole in the overlay, and it scrolls.
    @Test func theOverlayWrapsLongMessagesAndScrolls() {
        let long = "exported 200 rows to /tmp/" + String(repeating: "deep/", count: 30) + "products.csv"
        let entries = (0..<40).map { StatusEntry(text: "message \($0)", isError: false, time: nil) } + [StatusEntry(text: long, isError: false, time: nil)]
        let overlay = MessagesOverlay(size: TerminalSize(rows: 24, columns: 80), messages: entries)
        let text = overlay.visibleLines(scroll: 0).map { String($0.dropFirst(MessagesOverlay.indent)) }.joined()
        // Nothing of it is cut (the wrap takes the spaces it breaks at).
        #expect(text.filter { $0 != " " }.hasSuffix(long.filter { $0 != " " }))
        #expect(overlay.lines.allSatisfy { DisplayWidth.of($0) <= overlay.box.width - 4 })
        #expect(overlay.maxScroll > 0 && overlay.visibleLines(scroll: overlay.maxScroll).first?.hasSuffix("message 0") == true)
        var s = state()
        for e in entries { s.setStatus(e.text) }
        s.layout = Layout(size: TerminalSize(rows: 24, columns: 80))
        s.mode = .messages
        _ = Reducer.reduce(&s, .key(.char("k")))
        _ = Reducer.reduce(&s, .key(.char("g")))
        #expect(s.mode == .messages && s.messagesScroll == overlay.maxScroll)
        _ = Reducer.reduce(&s, .key(.escape))
        #expect(s.mode == .browse && s.messagesScroll == 0)
    }

    // MARK: The demo

    /// `vellum demo` opened the first entity (Image); it opens Products, where the writer changes prices.
    @Test func theDemoOpensOnProductsWithAWelcomeLine() async throws {
        for size in Self.sizes {
            let s = try session(size, opening: DemoStore.firstEntity)
            #expect(s.state.currentEntityName == "Product" && s.state.rowCount > 0)
            s.send(.welcome(live: DemoStore.welcomeLive))
            let welcome = try #require(s.state.statusMessage)
            #expect(welcome == "welcome: j/k move, e edit, / filter, ? help — prices change live")
            let line = screen(s)[size.rows - 2]
            #expect(line.contains(welcome) && line.contains("● live"), "\(line)")
            // It stays while the clock runs, and goes at the first key.
            _ = s.tick(now: Date())
            _ = s.tick(now: Date().addingTimeInterval(60))
            #expect(s.state.statusMessage == welcome)
            await s.handle(.char("j"))
            #expect(s.state.statusMessage == nil && s.state.cursorRow == 1)
            #expect(screen(s)[size.rows - 2].contains("Product"))
        }
        #expect(try session(Self.sizes[0], opening: nil).state.currentEntityName != "Product")
    }

    /// The welcome names the keys as bound.
    @Test func theWelcomeNamesTheBoundKeys() {
        var keys = KeyMap.defaults
        keys.bind(.char("x"), to: "edit")
        #expect(Reducer.welcome(keys, live: "prices change live") == "welcome: j/k move, x edit, / filter, ? help — prices change live")
    }
}
