/// Character attributes independent of colour (ncurses A_* flags).
public struct TextAttributes: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TextAttributes(rawValue: 1 << 0)
    public static let dim = TextAttributes(rawValue: 1 << 1)
    public static let underline = TextAttributes(rawValue: 1 << 2)
    public static let reverse = TextAttributes(rawValue: 1 << 3)
    public static let italic = TextAttributes(rawValue: 1 << 4)
    public static let blink = TextAttributes(rawValue: 1 << 5)

    /// Names used in theme files.
    public static let names: [(String, TextAttributes)] = [
        ("bold", .bold), ("dim", .dim), ("underline", .underline),
        ("reverse", .reverse), ("italic", .italic), ("blink", .blink),
    ]
}
