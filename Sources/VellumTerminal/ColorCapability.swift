import CCurses

/// How many colours the terminal can show, ordered from none to truecolor.
public enum ColorCapability: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    case none = 0
    case ansi8
    case ansi16
    case xterm256
    case trueColor

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .none: "none"
        case .ansi8: "8 colours"
        case .ansi16: "16 colours"
        case .xterm256: "256 colours"
        case .trueColor: "truecolor"
        }
    }

    /// The terminfo facts detection needs; injectable so detection is
    /// testable without a terminal.
    public struct Terminfo: Sendable {
        /// tigetnum("colors"), or nil/negative if unknown.
        public var colors: Int?
        /// terminfo boolean or string "RGB" / "Tc" present.
        public var hasRGB: Bool

        public init(colors: Int?, hasRGB: Bool) {
            self.colors = colors
            self.hasRGB = hasRGB
        }

        /// Reads the live terminfo entry for $TERM (works before initscr).
        public static func current() -> Terminfo {
            guard ccurses_setupterm_probe() == 1 else { return Terminfo(colors: nil, hasRGB: false) }
            let colors = Int(ccurses_tigetnum("colors"))
            let rgb = ccurses_tigetflag("RGB") == 1 || ccurses_tigetflag("Tc") == 1
                || ccurses_tigetstr_present("RGB") == 1 || ccurses_tigetstr_present("Tc") == 1
                || ccurses_tigetnum("RGB") > 0
            return Terminfo(colors: colors >= 0 ? colors : nil, hasRGB: rgb)
        }
    }

    /// Detection order: NO_COLOR (any non-empty value) → none; COLORTERM of
    /// truecolor/24bit or terminfo RGB/Tc → truecolor; else by the terminfo
    /// colour count.
    public static func detect(environment: [String: String], terminfo: Terminfo) -> ColorCapability {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .none }
        let colorTerm = environment["COLORTERM"]?.lowercased() ?? ""
        if colorTerm == "truecolor" || colorTerm == "24bit" || terminfo.hasRGB { return .trueColor }
        switch terminfo.colors ?? 0 {
        case 256...: return .xterm256
        case 16...: return .ansi16
        case 8...: return .ansi8
        default: return .none
        }
    }
}
