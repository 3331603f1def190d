/// The 16 named ANSI colours; raw values are the terminal palette indices.
public enum ANSIColor: Int, Sendable, Hashable, CaseIterable {
    case black, red, green, yellow, blue, magenta, cyan, white
    case brightBlack, brightRed, brightGreen, brightYellow, brightBlue, brightMagenta, brightCyan, brightWhite

    /// Names accepted in theme files (`bright-red`, `brightred`, `bright_red`
    /// all normalise to the camel-case name; `gray`/`grey` = brightBlack).
    public static func named(_ name: String) -> ANSIColor? {
        let key = name.lowercased().filter { $0 != "-" && $0 != "_" }
        switch key {
        case "gray", "grey": return .brightBlack
        default: return allCases.first { "\($0)".lowercased() == key }
        }
    }

    /// xterm's default RGB for the colour, used for nearest-colour matching.
    public var rgb: RGB {
        switch self {
        case .black: RGB(0, 0, 0)
        case .red: RGB(205, 0, 0)
        case .green: RGB(0, 205, 0)
        case .yellow: RGB(205, 205, 0)
        case .blue: RGB(0, 0, 238)
        case .magenta: RGB(205, 0, 205)
        case .cyan: RGB(0, 205, 205)
        case .white: RGB(229, 229, 229)
        case .brightBlack: RGB(127, 127, 127)
        case .brightRed: RGB(255, 0, 0)
        case .brightGreen: RGB(0, 255, 0)
        case .brightYellow: RGB(255, 255, 0)
        case .brightBlue: RGB(92, 92, 255)
        case .brightMagenta: RGB(255, 0, 255)
        case .brightCyan: RGB(0, 255, 255)
        case .brightWhite: RGB(255, 255, 255)
        }
    }
}
