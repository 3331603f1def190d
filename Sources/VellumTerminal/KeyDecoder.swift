/// Pure decoder from terminal input bytes to `Key`s.
///
/// Why a separate decoder: ncurses already decodes keys on the live path, but
/// a byte-level decoder is testable without a terminal and can be used when
/// reading raw input (or piping scripted input). Handles UTF-8, CSI and SS3
/// sequences (xterm, vt220, rxvt and linux-console variants), X10 and SGR
/// mouse reports, Alt+key as ESC-prefix, and Ctrl/Alt+Left/Right as word motion.
///
/// A lone ESC cannot be told apart from the start of a sequence until input
/// pauses; the caller calls `flush()` after its escape timeout (~25 ms) when
/// `hasPendingInput` is true.
public struct KeyDecoder: Sendable {
    private var buffer: [UInt8] = []

    public init() {}

    /// True when bytes are held back waiting for the rest of a sequence.
    public var hasPendingInput: Bool { !buffer.isEmpty }

    /// Appends bytes and returns every key that is now complete.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Key] {
        buffer.append(contentsOf: bytes)
        return drain(final: false)
    }

    /// Resolves whatever is pending as if input had paused: a lone ESC becomes
    /// `.escape`, ESC+`[` / ESC+`O` become Alt+`[` / Alt+`O`, and a truncated
    /// sequence becomes `.escape` followed by its remaining bytes as keys.
    public mutating func flush() -> [Key] {
        drain(final: true)
    }

    private enum Step {
        case key(Key?, consumed: Int)   // nil key: consumed but nothing to report
        case incomplete
    }

    private mutating func drain(final: Bool) -> [Key] {
        var keys: [Key] = []
        var start = 0
        while start < buffer.count {
            let rest = buffer[start...]
            switch Self.decode(rest) {
            case let .key(key, consumed):
                if let key { keys.append(key) }
                start += consumed
            case .incomplete:
                guard final else {
                    buffer.removeFirst(start)
                    return keys
                }
                let (key, consumed) = Self.resolveTimedOut(rest)
                keys.append(key)
                start += consumed
            }
        }
        buffer.removeAll(keepingCapacity: true)
        return keys
    }

    /// What an incomplete prefix means once no more bytes are coming.
    private static func resolveTimedOut(_ bytes: ArraySlice<UInt8>) -> (Key, Int) {
        let b = Array(bytes)
        if b[0] == 0x1B {
            if b.count == 2 && (b[1] == UInt8(ascii: "[") || b[1] == UInt8(ascii: "O")) {
                return (.alt(Character(Unicode.Scalar(b[1]))), 2)
            }
            return (.escape, 1)
        }
        return (.unknown, 1)  // truncated UTF-8
    }

    private static func decode(_ bytes: ArraySlice<UInt8>) -> Step {
        let b = Array(bytes)
        guard let first = b.first else { return .incomplete }
        if first == 0x1B { return decodeEscape(b) }
        return decodeUTF8(b, at: 0)
    }

    /// Decodes one UTF-8 scalar starting at `index`.
    private static func decodeUTF8(_ b: [UInt8], at index: Int) -> Step {
        let lead = b[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return .key(.unknown, consumed: 1)
        }
        if b.count - index < length {
            // Stop early on an invalid continuation byte rather than waiting.
            for i in (index + 1)..<b.count where b[i] & 0xC0 != 0x80 {
                return .key(.unknown, consumed: i - index)
            }
            return .incomplete
        }
        var decoder = UTF8()
        var iterator = b[index..<(index + length)].makeIterator()
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar):
            return .key(Key.scalar(scalar), consumed: length)
        default:
            return .key(.unknown, consumed: 1)
        }
    }

    private static func decodeEscape(_ b: [UInt8]) -> Step {
        guard b.count >= 2 else { return .incomplete }
        switch b[1] {
        case UInt8(ascii: "["):
            return decodeCSI(b)
        case UInt8(ascii: "O"):
            guard b.count >= 3 else { return .incomplete }
            return .key(ss3(b[2]), consumed: 3)
        case 0x1B:
            // rxvt sends Alt+arrow as ESC + the arrow's sequence.
            switch decodeEscape(Array(b[1...])) {
            case .incomplete: return .incomplete
            case .key(.left?, let consumed): return .key(.wordLeft, consumed: consumed + 1)
            case .key(.right?, let consumed): return .key(.wordRight, consumed: consumed + 1)
            // Any other ESC ESC: report the first as Escape and let the second start over.
            default: return .key(.escape, consumed: 1)
            }
        default:
            switch decodeUTF8(b, at: 1) {
            case .incomplete:
                return .incomplete
            case let .key(key, consumed):
                switch key {
                case .char(let c)?: return .key(.alt(c), consumed: consumed + 1)
                case .ctrl(let c)?: return .key(.alt(c), consumed: consumed + 1)
                case .backspace?: return .key(.alt("\u{7F}"), consumed: consumed + 1)
                case .enter?: return .key(.alt("\r"), consumed: consumed + 1)
                case .tab?: return .key(.alt("\t"), consumed: consumed + 1)
                default: return .key(.escape, consumed: 1)
                }
            }
        }
    }

    private static func ss3(_ final: UInt8) -> Key {
        switch final {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "M"): return .enter   // keypad Enter in application mode
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return .function(3)
        case UInt8(ascii: "S"): return .function(4)
        case UInt8(ascii: "c"): return .wordRight   // rxvt Ctrl+Right
        case UInt8(ascii: "d"): return .wordLeft    // rxvt Ctrl+Left
        default: return .unknown
        }
    }

    private static func decodeCSI(_ b: [UInt8]) -> Step {
        guard b.count >= 3 else { return .incomplete }
        // Linux console F1–F5: ESC [ [ A..E
        if b[2] == UInt8(ascii: "[") {
            guard b.count >= 4 else { return .incomplete }
            let n = Int(b[3]) - Int(UInt8(ascii: "A")) + 1
            return .key((1...5).contains(n) ? .function(n) : .unknown, consumed: 4)
        }
        // X10 mouse: ESC [ M cb cx cy
        if b[2] == UInt8(ascii: "M") {
            guard b.count >= 6 else { return .incomplete }
            let key = mouse(button: Int(b[3]) - 32, x: Int(b[4]) - 33, y: Int(b[5]) - 33, release: false)
            return .key(key, consumed: 6)
        }
        // Generic CSI: parameter bytes 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
        var i = 2
        while i < b.count, (0x20...0x3F).contains(b[i]) { i += 1 }
        guard i < b.count else {
            return i - 2 > 32 ? .key(.unknown, consumed: i) : .incomplete
        }
        let final = b[i]
        guard (0x40...0x7E).contains(final) else { return .key(.unknown, consumed: i) }
        let params = String(decoding: b[2..<i], as: UTF8.self)
        return .key(csi(params: params, final: final), consumed: i + 1)
    }

    private static func csi(params: String, final: UInt8) -> Key? {
        if params.hasPrefix("<") {
            // SGR mouse: ESC [ < b ; x ; y (M press | m release), 1-based coords.
            let fields = params.dropFirst().split(separator: ";").compactMap { Int($0) }
            guard fields.count == 3 else { return .unknown }
            return mouse(button: fields[0], x: fields[1] - 1, y: fields[2] - 1, release: final == UInt8(ascii: "m"))
        }
        // Modifier parameters (e.g. "1;5") are ignored except Ctrl or Alt on
        // Left/Right, which mean word motion: Key has no other modified keys.
        let fields = params.split(separator: ";", omittingEmptySubsequences: false)
        let first = Int(fields.first ?? "") ?? 0
        let modifier = fields.count > 1 ? Int(fields[1]) ?? 1 : 1
        let ctrlOrAlt = (modifier - 1) & 0b110 != 0     // xterm: 1 + (Shift 1 | Alt 2 | Ctrl 4)
        switch final {
        case UInt8(ascii: "C") where ctrlOrAlt: return .wordRight
        case UInt8(ascii: "D") where ctrlOrAlt: return .wordLeft
        case UInt8(ascii: "Z"): return .backTab
        case UInt8(ascii: "M"): return .unknown  // not keypad Enter here (that is SS3 only)
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 2: return .insert
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return .unknown
            }
        default:
            // Arrows, Home/End and F1–F4 share their final bytes with SS3.
            return ss3(final)
        }
    }

    /// Interprets an xterm mouse button code. Motion is dropped (nil): the app acts on
    /// presses, releases (the end of a drag) and wheel steps.
    private static func mouse(button: Int, x: Int, y: Int, release: Bool) -> Key? {
        if button & 32 != 0 { return nil }
        let x = max(0, x), y = max(0, y)
        if release { return button & 3 == 0 ? .mouse(MouseEvent(.release, x: x, y: y)) : nil }
        if button & 64 != 0 {
            switch button & 3 {
            case 0: return .mouse(MouseEvent(.wheelUp, x: x, y: y))
            case 1: return .mouse(MouseEvent(.wheelDown, x: x, y: y))
            default: return nil
            }
        }
        // X10 encodes a release as button 3 (of whichever button).
        switch button & 3 {
        case 0: return .mouse(MouseEvent(.click, x: x, y: y))
        case 3: return .mouse(MouseEvent(.release, x: x, y: y))
        default: return nil
        }
    }
}
