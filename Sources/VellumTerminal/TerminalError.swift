import CCurses

/// Why the full-screen UI could not start. The app prints `description`
/// and exits non-zero instead of corrupting a pipe or log file.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    case notATerminal(stdinIsTerminal: Bool, stdoutIsTerminal: Bool)
    case initializationFailed(String)
    /// The terminal type has no cursor addressing (`cup`), e.g. TERM=dumb.
    case noCursorAddressing(term: String)

    public var description: String {
        switch self {
        case let .notATerminal(stdinIsTerminal, stdoutIsTerminal):
            let which = switch (stdinIsTerminal, stdoutIsTerminal) {
            case (false, false): "standard input and standard output are not terminals"
            case (false, true): "standard input is not a terminal"
            default: "standard output is not a terminal"
            }
            return "vellum: the interactive browser needs a terminal, but \(which). Run it in a terminal, or use a non-interactive command."
        case let .initializationFailed(reason):
            return "vellum: cannot initialise the terminal: \(reason)"
        case let .noCursorAddressing(term):
            return "vellum: the terminal '\(term)' cannot move the cursor (its terminfo entry has no 'cup'), so the browser cannot draw in it. Set TERM to your terminal's type (e.g. xterm-256color), or use a non-interactive command such as 'vellum query'."
        }
    }

    /// Throws unless $TERM names a known terminal that can address the cursor.
    /// Checked before curses starts, so a refused terminal gets nothing but
    /// the message: no escape sequence, no change of its modes.
    public static func requireCursorAddressing(term: String) throws(TerminalError) {
        guard ccurses_setupterm_probe() == 1 else { throw .initializationFailed("unknown terminal type '\(term)'") }
        guard ccurses_tigetstr_present("cup") == 1 else { throw .noCursorAddressing(term: term) }
    }

    /// Throws `.notATerminal` unless both stdin and stdout are TTYs.
    public static func requireTerminal() throws(TerminalError) {
        let input = ccurses_isatty(0) == 1
        let output = ccurses_isatty(1) == 1
        guard input && output else {
            throw .notATerminal(stdinIsTerminal: input, stdoutIsTerminal: output)
        }
    }
}
