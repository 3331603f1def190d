import CCurses
import Foundation

/// A thin ncurses session: start/stop, drawing in display-width units, and
/// key input. The app owns the event loop; Screen only wraps curses.
///
/// Why @MainActor: ncurses is single-threaded global state; confining the
/// session to the main actor makes that explicit to the compiler.
@MainActor
public final class Screen {
    /// The active session, if any (ncurses supports one at a time here).
    public private(set) static var current: Screen?

    public let colorCapability: ColorCapability
    /// False when the locale's character set is not UTF-8: text is then drawn
    /// with `GlyphTable`'s ASCII forms.
    public let drawsUnicode: Bool
    private var colors: ColorAllocator
    private let keyMap = CursesKeyMap()
    private(set) var active = true
    /// Whether the terminal reports the mouse to us (`setMouseCapture`); while it does,
    /// most terminals still select text with Shift held.
    public private(set) var capturesMouse = true
    /// Keys decoded together with an ESC sequence, returned by later reads.
    private var pendingKeys: [Key] = []
    private static let escapeDelayMilliseconds: Int32 = 25

    /// Initialises the terminal. Throws if stdin/stdout are not terminals or
    /// curses cannot start (e.g. unknown TERM). Restoration is registered
    /// with atexit, so even an unexpected exit leaves a usable terminal.
    public static func start(environment: [String: String] = ProcessInfo.processInfo.environment) throws(TerminalError) -> Screen {
        if let existing = current { return existing }
        try TerminalError.requireTerminal()
        try TerminalError.requireCursorAddressing(term: environment["TERM"] ?? "")
        ccurses_setlocale_all()   // ncursesw decodes UTF-8 output only with a UTF-8 locale
        guard ccurses_start_screen() == 1 else {
            throw .initializationFailed("unknown or unusable terminal type '\(environment["TERM"] ?? "")'")
        }
        ccurses_register_atexit()
        raw()                      // Ctrl-C/Ctrl-Z/Ctrl-S arrive as keys
        noecho()
        nonl()
        keypad(ccurses_stdscr(), true)
        _ = ccurses_set_escdelay(escapeDelayMilliseconds)
        _ = ccurses_enable_mouse()
        curs_set(0)

        var capability = ColorCapability.detect(environment: environment, terminfo: .current())
        var defaultColors = false
        if capability != .none && has_colors() {
            start_color()
            defaultColors = ccurses_use_default_colors() == ccurses_ok()
        } else {
            capability = .none
        }
        let allocator = ColorAllocator(
            capability: capability,
            colors: ccurses_colors(),
            maxPairs: ccurses_color_pairs(),
            canChangeColor: ccurses_can_change_color() == 1,
            defaultColorsAllowed: defaultColors,
            exactColors: false)
        let screen = Screen(capability: capability, colors: allocator, drawsUnicode: ccurses_locale_is_utf8() == 1)
        current = screen
        return screen
    }

    private init(capability: ColorCapability, colors: ColorAllocator, drawsUnicode: Bool) {
        self.colorCapability = capability
        self.colors = colors
        self.drawsUnicode = drawsUnicode
    }

    /// Whether #rrggbb colours may redefine palette slots to show exactly
    /// (a theme's `exact-colors`). Off, they map to the nearest palette
    /// colour and the terminal's palette is never touched; turned off again,
    /// the slots changed are put back. The next frame must redraw everything.
    public func setExactColors(_ exact: Bool) {
        guard active, exact != colors.exactColors else { return }
        ccurses_palette_forget()
        colors = colors.with(exactColors: exact)
    }

    /// Restores the terminal. Idempotent; safe to call from any exit path.
    public func stop() {
        guard active else { return }
        active = false
        ccurses_restore_if_active()
        if Screen.current === self { Screen.current = nil }
    }

    /// Current size in cells (updated by ncurses on resize).
    public var size: TerminalSize {
        var rows: Int32 = 0
        var cols: Int32 = 0
        ccurses_getmaxyx(&rows, &cols)
        return TerminalSize(rows: Int(rows), columns: Int(cols))
    }

    // MARK: Drawing

    /// Draws `text` at (row, col), clipped to `maxWidth` cells and the right
    /// edge, never splitting a grapheme. Control characters are dropped
    /// (they have width 0 and would move the terminal cursor). Returns the
    /// number of cells drawn.
    @discardableResult
    public func put(row: Int, col: Int, text: String, style: Style = .plain, maxWidth: Int? = nil) -> Int {
        let bounds = size
        guard active, row >= 0, row < bounds.rows, col >= 0, col < bounds.columns else { return 0 }
        let limit = min(maxWidth ?? Int.max, bounds.columns - col)
        guard limit > 0 else { return 0 }
        let clipped = DisplayWidth.clip(text, toWidth: limit)
        apply(style)
        if clipped.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            _ = clipped.withCString { ccurses_mvaddnstr_utf8(Int32(row), Int32(col), $0, -1) }
            return clipped.utf8.count
        }
        // Cell by cell, each at the column our widths give it, so nothing
        // (a control character, a joiner) can move the terminal's cursor
        // elsewhere than ncurses expects.
        var x = col
        for character in clipped {
            for cell in TerminalCells.cells(of: character) {
                draw(cell, row: row, col: x)
                x += cell.width
            }
        }
        return x - col
    }

    private func draw(_ cell: TerminalCell, row: Int, col: Int) {
        guard drawsUnicode else {
            // One ASCII character per cell, padded to the cell's width.
            let ascii = String(Character(GlyphTable.asciiForm(of: cell.scalars[0]))) + String(repeating: " ", count: cell.width - 1)
            _ = ascii.withCString { ccurses_mvaddnstr_utf8(Int32(row), Int32(col), $0, -1) }
            return
        }
        let chars = cell.scalars.map(\.value)
        _ = ccurses_mvadd_cell(Int32(row), Int32(col), chars, Int32(chars.count))
    }

    /// Fills a rectangle with `character` (default space) in `style`.
    public func fill(row: Int, col: Int, width: Int, height: Int = 1, style: Style = .plain, character: Character = " ") {
        let w = max(1, DisplayWidth.of(character))
        guard width > 0 else { return }
        let line = String(repeating: String(character), count: width / w)
        for r in row..<(row + max(0, height)) {
            put(row: r, col: col, text: line, style: style, maxWidth: width)
        }
    }

    /// Blanks the whole screen with `style` (its background colour).
    public func clear(style: Style = .plain) {
        guard active else { return }
        erase()   // erase, not clear: avoids a full repaint and flicker
        let bounds = size
        if style != .plain {
            fill(row: 0, col: 0, width: bounds.columns, height: bounds.rows, style: style)
        }
    }

    /// Makes the next refresh repaint every cell, whatever ncurses believes
    /// is on the terminal (after the process was stopped and continued).
    public func repaintAll() {
        guard active else { return }
        ccurses_repaint_all()
    }

    /// Pushes drawing to the terminal.
    public func refresh() {
        guard active else { return }
        _ = CCurses.refresh()
    }

    /// Shows the terminal cursor at (row, col), or hides it with nil.
    public func setCursor(row: Int?, col: Int? = nil) {
        guard active else { return }
        if let row, let col {
            move(Int32(row), Int32(col))
            curs_set(1)
        } else {
            curs_set(0)
        }
    }

    private func apply(_ style: Style) {
        var attrs = ccurses_a_normal()
        let a = style.attributes
        if a.contains(.bold) { attrs |= ccurses_a_bold() }
        if a.contains(.dim) { attrs |= ccurses_a_dim() }
        if a.contains(.underline) { attrs |= ccurses_a_underline() }
        if a.contains(.reverse) { attrs |= ccurses_a_reverse() }
        if a.contains(.italic) { attrs |= ccurses_a_italic() }
        if a.contains(.blink) { attrs |= ccurses_a_blink() }
        _ = ccurses_attr_set(attrs, colors.pair(for: style))
    }

    // MARK: Input

    /// Waits for the next key. `timeoutMilliseconds`: nil blocks, 0 polls.
    /// Returns nil on timeout. Resizes arrive as `.resize`.
    /// True once the terminal is gone — its window closed, the ssh connection dropped, the
    /// tmux session killed — so no key can come any more. A hung-up terminal reads as
    /// endless "no key" (and its input stays readable), and SIGHUP does not always reach
    /// a program started by a shell script, so the loop asks.
    public var inputHungUp: Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        return poll(&input, 1, 0) > 0 && input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }

    public func readKey(timeoutMilliseconds: Int? = nil) -> Key? {
        guard active else { return nil }
        if !pendingKeys.isEmpty { return pendingKeys.removeFirst() }
        ccurses_timeout(Int32(clamping: timeoutMilliseconds ?? -1))
        guard let key = readOne() else { return nil }
        guard key == .escape else { return key }

        // ncurses already waited ESCDELAY and returned ESC because the bytes
        // after it matched no terminfo key (e.g. CSI arrows while the terminal is in
        // application mode, Alt+key, and every mouse report: ncurses is told not to
        // decode those). Whatever is already buffered belongs to it: decode ESC + those
        // bytes ourselves. Read as bytes (an X10 report's coordinates are not UTF-8),
        // and never stop inside a sequence (a flushed half would read as typed keys).
        ccurses_timeout(0)
        var decoder = KeyDecoder()
        var keys = decoder.feed([0x1B])
        var read = 0
        while read < 4096 || decoder.hasPendingInput {
            let next = ccurses_getch()
            if next == ccurses_err() { break }
            read += 1
            if (0...255).contains(next) {
                keys += decoder.feed([UInt8(next)])
            } else {
                // A key ncurses decoded itself ends the run.
                keys += decoder.flush()
                keys.append(self.key(forCode: next))
                break
            }
        }
        keys += decoder.flush()
        guard !keys.isEmpty else { return .escape }
        pendingKeys += keys.dropFirst()
        return keys[0]
    }

    private func readOne() -> Key? {
        var value: UInt32 = 0
        let status = ccurses_get_wch(&value)
        if status == ccurses_err() { return nil }
        if status == ccurses_key_code_yes() { return key(forCode: Int32(bitPattern: value)) }
        return keyMap.key(forCharacter: value)
    }

    /// The key ncurses decoded itself (a `KEY_` code). A mouse report reaches here only
    /// when ncurses reads the mouse (gpm on the console): the terminal's are ours.
    private func key(forCode code: Int32) -> Key {
        guard keyMap.isMouse(code) else { return keyMap.key(forCode: code) }
        var x: Int32 = 0, y: Int32 = 0, state: UInt32 = 0
        guard ccurses_getmouse(&x, &y, &state) == ccurses_ok() else { return .unknown }
        return CursesKeyMap.mouseKey(bstate: state, x: Int(x), y: Int(y)) ?? .unknown
    }

    /// Mouse capture on (clicks and the wheel come to the browser) or off (the
    /// terminal keeps the mouse for its own text selection).
    public func setMouseCapture(_ on: Bool) {
        guard active, on != capturesMouse else { return }
        capturesMouse = on
        if on { _ = ccurses_enable_mouse() } else { ccurses_disable_mouse() }
    }

    // MARK: Job control

    /// Ctrl-Z: restores the terminal (palette included), stops the process,
    /// and when the shell continues it (SIGCONT) takes the terminal back and
    /// repaints everything on the next refresh. The caller redraws its frame.
    public func suspend() {
        guard active else { return }
        def_prog_mode()
        ccurses_restore_if_active()   // palette, mouse, cursor, endwin
        ccurses_raise_tstp()          // returns once continued
        reset_prog_mode()
        ccurses_palette_reapply()
        if capturesMouse { _ = ccurses_enable_mouse() }
        curs_set(0)
        ccurses_repaint_all()
        _ = CCurses.refresh()
    }
}
