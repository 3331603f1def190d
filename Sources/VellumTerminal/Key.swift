/// One decoded keypress (or terminal event) as the app sees it, independent
/// of whether it came from ncurses or from raw bytes.
public enum Key: Sendable, Hashable {
    /// A printable character (never a control character).
    case char(Character)
    /// Ctrl+letter, lowercased (`ctrl("c")`); also `ctrl(" ")` for Ctrl+Space
    /// and `ctrl("\\")`, `ctrl("]")`, `ctrl("^")`, `ctrl("_")`.
    case ctrl(Character)
    /// Alt/Meta+character (ESC prefix).
    case alt(Character)
    case up, down, left, right
    /// Left/Right with Ctrl or Alt (xterm `ESC [ 1 ; 5 D` / `;3`, rxvt `ESC O d`):
    /// one key per direction because terminals and shells use both for word motion.
    case wordLeft, wordRight
    case home, end
    case pageUp, pageDown
    /// F1...F12 as `function(1)`...`function(12)`.
    case function(Int)
    case enter, escape, backspace, delete, tab, backTab, insert
    case mouse(MouseEvent)
    /// The terminal was resized; query `Screen.size`.
    case resize
    case unknown

    /// Maps a single C0 control code or DEL to its key. Shared by the byte
    /// decoder and the ncurses path so both agree on e.g. Ctrl-H = backspace.
    static func control(_ byte: UInt32) -> Key? {
        switch byte {
        case 0x00: return .ctrl(" ")
        case 0x08, 0x7F: return .backspace
        case 0x09: return .tab
        case 0x0A, 0x0D: return .enter
        case 0x1B: return .escape
        case 0x01...0x1A: return .ctrl(Character(Unicode.Scalar(UInt8(0x60 + byte))))
        case 0x1C: return .ctrl("\\")
        case 0x1D: return .ctrl("]")
        case 0x1E: return .ctrl("^")
        case 0x1F: return .ctrl("_")
        default: return nil
        }
    }

    /// Key for a decoded Unicode scalar typed by the user.
    static func scalar(_ scalar: Unicode.Scalar) -> Key {
        if let key = control(scalar.value) { return key }
        if scalar.value >= 0x80 && scalar.value < 0xA0 { return .unknown }
        return .char(Character(scalar))
    }
}
