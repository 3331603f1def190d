/// A colour as written in a theme, before it is fitted to what the terminal
/// can show (see `ColorMapping`).
public enum Color: Sendable, Hashable {
    /// The terminal's own foreground/background (ncurses colour -1).
    case `default`
    case ansi(ANSIColor)
    /// An xterm-256 palette index.
    case indexed(UInt8)
    case rgb(RGB)
}
