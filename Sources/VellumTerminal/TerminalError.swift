import CCurses

/// Why the full-screen UI could not start. The app prints `description`
/// and exits non-zero instead of corrupting a pipe or log file.
public enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    case notATerminal(stdinIsTerminal: Bool, stdoutIsTerminal: Bool)
    case initializationFailed(String)

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
        }
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
