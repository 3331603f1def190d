/// What a key asks of the terminal, which only the event loop owns: returned by
/// `BrowserSession.handle(_:)` for the loop to act on at once, never left in a
/// flag for it to poll.
public enum TerminalRequest: Sendable, Equatable {
    case quit
    case suspend
    case setTheme(String)

    /// The request an effect is, if it is one (else the session executes it).
    init?(_ effect: Effect) {
        switch effect {
        case .quit: self = .quit
        case .suspend: self = .suspend
        case .setTheme(let name): self = .setTheme(name)
        default: return nil
        }
    }
}
