import Foundation
import VellumTerminal

/// How long status messages stay, and `:messages`, the list of the last ones.
extension Reducer {
    /// The loop's clock: stamps what was set since the last tick (`:messages` shows it).
    /// It takes no message away: a message goes when it is no longer true.
    static func clockTicked(_ s: inout AppState, _ now: Date) {
        for i in s.messages.indices.reversed() {
            guard s.messages[i].time == nil else { break }
            s.messages[i].time = now
        }
    }

    /// Before a key does anything: an error or the welcome has been seen, so it goes
    /// (what the key does may set a new one).
    static func keyPressed(_ s: inout AppState) {
        if s.statusMessage != nil, s.statusKind.endsWithKey { s.setStatus(nil) }
    }

    /// Before a navigation or command in the list: what the last message said has
    /// happened is behind the user now (what the command does may say something new).
    /// Work under way keeps its message until it ends.
    static func movedOn(_ s: inout AppState) {
        if s.statusMessage != nil, s.statusKind.endsWithCommand { s.setStatus(nil) }
    }

    /// "welcome: j/k move, e edit, / filter, ? help — LIVE", with the keys as bound.
    static func welcome(_ keys: KeyMap, live: String) -> String {
        let tries = keys.hintLine([(["move-down", "move-up"], "move"), (["edit"], "edit"), (["filter"], "filter"),
                                   (["help"], "help")], separator: ", ")
        return "welcome: " + [tries, live].filter { !$0.isEmpty }.joined(separator: " — ")
    }

    /// `:messages`: opens the overlay at its end (the newest message).
    static func showMessages(_ s: inout AppState, _ argument: String) -> [Effect] {
        s.mode = .messages
        s.messagesScroll = 0
        return []
    }

    /// The `:messages` overlay: the keys that move in lists scroll it (up: older),
    /// Esc and every other key close it.
    static func messages(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        let overlay = MessagesOverlay(size: s.layout?.size ?? HelpOverlay.fallbackSize, messages: s.messages)
        switch (key, s.keyMap.action(for: key)) {
        case (.mouse(let event), _) where event.kind == .wheelDown: s.messagesScroll -= 3
        case (.mouse(let event), _) where event.kind == .wheelUp: s.messagesScroll += 3
        case (_, .moveDown?): s.messagesScroll -= 1
        case (_, .moveUp?): s.messagesScroll += 1
        case (_, .pageDown?): s.messagesScroll -= overlay.pageSize
        case (_, .pageUp?): s.messagesScroll += overlay.pageSize
        case (_, .top?): s.messagesScroll = overlay.maxScroll
        case (_, .bottom?): s.messagesScroll = 0
        default:
            s.mode = .browse
            s.messagesScroll = 0
        }
        s.messagesScroll = min(max(0, s.messagesScroll), overlay.maxScroll)
        return []
    }
}

extension Reducer {
    /// `:mouse [on|off]` (no word: the other one). Off leaves the mouse to the terminal,
    /// whose own text selection then works without Shift.
    static func mouse(_ s: inout AppState, _ argument: String) -> [Effect] {
        let on: Bool
        switch argument.lowercased() {
        case "": on = !s.mouseCapture
        case "on": on = true
        case "off": on = false
        default:
            s.setStatus("mouse: '\(argument)' is neither on nor off", error: true)
            return []
        }
        s.mouseCapture = on
        s.setStatus(on ? "mouse on: click and scroll here; hold Shift to select text (:mouse off leaves the mouse to the terminal)"
                       : "mouse off: the terminal selects text; :mouse on to click and scroll")
        return [.setMouseCapture(on)]
    }
}
