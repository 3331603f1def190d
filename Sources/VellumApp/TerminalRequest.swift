/// What a key asks of the terminal, which only the event loop owns: returned by
/// `BrowserSession.handle(_:)` for the loop to act on at once, never left in a
/// flag for it to poll.
public enum TerminalRequest: Sendable, Equatable {
    case quit
    case suspend
    case setTheme(String)
    /// Put the text on the terminal's clipboard (OSC 52; terminals that do not allow it ignore it).
    case copyToClipboard(String)
    /// Mouse reports on or off (`:mouse`, `--no-mouse`).
    case setMouseCapture(Bool)
    /// Open the file again (after `:track`/`:track off` changed how its changes are learnt),
    /// showing `entity`, with `status` on the status line.
    case reopen(status: String, entity: String?)

    /// The request an effect is, if it is one (else the session executes it).
    init?(_ effect: Effect) {
        switch effect {
        case .quit: self = .quit
        case .suspend: self = .suspend
        case .setTheme(let name): self = .setTheme(name)
        case .setMouseCapture(let on): self = .setMouseCapture(on)
        default: return nil
        }
    }
}
