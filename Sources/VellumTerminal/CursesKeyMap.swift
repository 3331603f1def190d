import CCurses

/// Maps ncurses `get_wch` results to `Key` for the live input path.
///
/// Why: KEY_* are C macros; the shim exposes them as functions and this type
/// caches them once so the mapping is a plain lookup.
public struct CursesKeyMap: Sendable {
    private let table: [Int32: Key]
    private let keyMouse: Int32
    private let keyResize: Int32

    public init() {
        var t: [Int32: Key] = [
            ccurses_key_up(): .up, ccurses_key_down(): .down,
            ccurses_key_left(): .left, ccurses_key_right(): .right,
            ccurses_key_home(): .home, ccurses_key_end(): .end,
            ccurses_key_ppage(): .pageUp, ccurses_key_npage(): .pageDown,
            ccurses_key_backspace(): .backspace, ccurses_key_dc(): .delete,
            ccurses_key_ic(): .insert, ccurses_key_btab(): .backTab,
            ccurses_key_enter(): .enter, ccurses_key_resize(): .resize,
        ]
        for n in 1...12 {
            t[ccurses_key_f(Int32(n))] = .function(n)
        }
        table = t
        keyMouse = ccurses_key_mouse()
        keyResize = ccurses_key_resize()
    }

    /// True if `code` (a KEY_CODE_YES value) is KEY_MOUSE, in which case the
    /// caller must read the event with getmouse (see `Screen.readKey`).
    public func isMouse(_ code: Int32) -> Bool { code == keyMouse }

    /// Key for a function-key code (`get_wch` returned KEY_CODE_YES).
    public func key(forCode code: Int32) -> Key {
        if let key = table[code] { return key }
        // Modified arrows have no KEY_* constant: ncurses numbers them when it
        // reads the terminfo's extended capabilities, so they are known by name.
        guard let name = keyname(code) else { return .unknown }
        return Self.extendedKeys[String(cString: name)] ?? .unknown
    }

    /// Terminfo names of Ctrl (5), Alt (3) and Ctrl+Alt (7) Left/Right.
    static let extendedKeys: [String: Key] = [
        "kLFT3": .wordLeft, "kLFT5": .wordLeft, "kLFT7": .wordLeft,
        "kRIT3": .wordRight, "kRIT5": .wordRight, "kRIT7": .wordRight,
    ]

    /// Key for a character (`get_wch` returned OK).
    public func key(forCharacter value: UInt32) -> Key {
        guard let scalar = Unicode.Scalar(value) else { return .unknown }
        return Key.scalar(scalar)
    }

    /// Key for an ncurses mouse button state at a position.
    public static func mouseKey(bstate: UInt32, x: Int, y: Int) -> Key? {
        if bstate & ccurses_button4_pressed() != 0 { return .mouse(MouseEvent(.wheelUp, x: x, y: y)) }
        if bstate & ccurses_button5_pressed() != 0 { return .mouse(MouseEvent(.wheelDown, x: x, y: y)) }
        if bstate & (ccurses_button1_pressed() | ccurses_button1_clicked()) != 0 {
            return .mouse(MouseEvent(.click, x: x, y: y))
        }
        if bstate & ccurses_button1_released() != 0 { return .mouse(MouseEvent(.release, x: x, y: y)) }
        return nil
    }
}
