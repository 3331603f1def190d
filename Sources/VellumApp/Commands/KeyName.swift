import VellumTerminal

/// Keys as people write them: in help (`↓`, `^R`, `PgDn`) and in a bindings
/// file, which accepts the help's spelling and words (`Down`, `C-r`, `PageDown`).
public enum KeyName {
    /// The help's label for a key.
    public static func label(_ key: Key) -> String {
        switch key {
        case .char(" "): return "Space"
        case .char(let c): return String(c)
        case .ctrl(let c): return "^" + String(c).uppercased()
        case .alt(let c): return "M-" + String(c)
        case .up: return "↑"
        case .down: return "↓"
        case .left: return "←"
        case .right: return "→"
        case .wordLeft: return "^←"
        case .wordRight: return "^→"
        case .home: return "Home"
        case .end: return "End"
        case .pageUp: return "PgUp"
        case .pageDown: return "PgDn"
        case .function(let n): return "F\(n)"
        case .enter: return "Enter"
        case .escape: return "Esc"
        case .backspace: return "Bksp"
        case .delete: return "Del"
        case .tab: return "Tab"
        case .backTab: return "S-Tab"
        case .insert: return "Ins"
        case .mouse: return "mouse"
        case .resize: return "resize"
        case .unknown: return "?"
        }
    }

    private static let words: [String: Key] = [
        "up": .up, "↑": .up, "down": .down, "↓": .down, "left": .left, "←": .left, "right": .right, "→": .right,
        "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
        "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "bksp": .backspace, "backspace": .backspace,
        "del": .delete, "delete": .delete, "tab": .tab, "s-tab": .backTab, "backtab": .backTab, "ins": .insert,
        "insert": .insert, "space": .char(" "), "^←": .wordLeft, "^→": .wordRight,
    ]

    /// The key a bindings file names, or nil when the name means no key.
    public static func parse(_ text: String) -> Key? {
        if let key = words[text.lowercased()] { return key }
        let chars = Array(text)
        if chars.count == 1 { return chars[0].isASCII && chars[0].asciiValue! < 0x20 ? nil : .char(chars[0]) }
        let lower = text.lowercased()
        if chars.count == 2, chars[0] == "^" { return ctrl(chars[1]) }
        if chars.count == 3, lower.hasPrefix("c-") { return ctrl(chars[2]) }
        if chars.count == 3, lower.hasPrefix("m-") || lower.hasPrefix("a-") { return .alt(chars[2]) }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) { return .function(n) }
        return nil
    }

    private static func ctrl(_ c: Character) -> Key? {
        let lower = Character(c.lowercased())
        guard lower.isLetter && lower.isASCII || "\\]^_ ".contains(lower) else { return nil }
        // The terminal sends these as the keys they are named after.
        switch lower {
        case "h": return .backspace
        case "i": return .tab
        case "j", "m": return .enter
        default: return .ctrl(lower)
        }
    }
}
