import Foundation
import VellumStore

/// A user who presses random keys from the browser's bindings — navigation,
/// edits, the to-one picker, undo/redo, add, duplicate, delete, filters, sorts,
/// Esc at any moment — and answers whatever prompt appears. Seeded: the same
/// seed makes the same choices for the same screens.
struct ScriptedUser {
    /// What the screen shows, read from its key-hint line (the last line).
    enum Mode: Equatable { case browse, edit, picker, conflict, confirmDelete, filter, other }

    enum Intent: Equatable {
        case keys                        // navigation and everything that is not a write by itself
        case commitEdit(token: String)   // typed a new value and Enter
        case commitEmpty                 // cleared the field and Enter
        case pick                        // chose in the to-one picker
        case undo, redo
        case keepMine, takeTheirs
        case confirmDelete
    }

    struct Action {
        var step: Int
        var mode: Mode
        var keys: [String]
        var intent: Intent
        var start: Double
        /// When the editor or picker this action commits was opened (nil when none).
        var editorOpenedAt: Double?
        /// When the opened editor was first seen, and the screen then: the browser read the
        /// value it starts from between `editorOpenedAt` and this time.
        var editorSeen: (at: Double, screen: String)?
        /// A conflict prompt appeared in answer to this action.
        var promptShown = false
    }

    private var rng: SplitMix64
    private var tokenCounter = 0
    /// Names of the Person rows, for picker searches.
    let personNames: [String]
    /// Values typed into fields (all unique).
    private(set) var typedTokens: Set<String> = []

    init(seed: UInt64, personNames: [String]) {
        rng = SplitMix64(seed: seed)
        self.personNames = personNames
    }

    static func mode(of screen: String) -> Mode {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let hint = lines.last(where: { !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? ""
        // The editor first: once another writer changed its record, its hint says
        // "Enter save: asks keep mine or take theirs", which is not the prompt itself.
        if hint.contains("Enter save") { return .edit }
        if hint.contains("keep mine") || screen.contains("m keep mine") || screen.contains("m re-add") { return .conflict }
        if hint.contains("type to search") { return .picker }
        if hint.contains("Delete this record?") || hint.contains("Delete ") && hint.contains("y = yes") { return .confirmDelete }
        // The `/` or `:` line, with its hint or with the error it keeps open.
        if hint.contains("Enter apply") || lines.suffix(4).contains(where: { $0.hasPrefix("/") || $0.hasPrefix(":") }) { return .filter }
        if hint.contains("Esc close") || hint.contains("Esc cancel") { return .other }
        return .browse
    }

    private mutating func pick<T>(_ weighted: [(Int, T)]) -> T {
        let total = weighted.reduce(0) { $0 + $1.0 }
        var r = Int(rng.next() % UInt64(total))
        for (w, v) in weighted {
            if r < w { return v }
            r -= w
        }
        return weighted[weighted.count - 1].1
    }

    private mutating func newToken() -> String {
        tokenCounter += 1
        let token = "\(700_000 + tokenCounter)"
        typedTokens.insert(token)
        return token
    }

    /// How long the user looks at an open editor, picker or prompt before answering —
    /// long enough, often enough, for the other writer to change the same record meanwhile.
    mutating func thinkTime(mode: Mode) -> TimeInterval {
        guard mode == .edit || mode == .picker || mode == .conflict else { return 0 }
        return pick([(5, 0), (3, 0.4), (2, 0.9)])
    }

    /// The next keys for a screen in `mode`, as tmux `send-keys` arguments
    /// (a `"text:"` prefix means literal text).
    mutating func next(mode: Mode) -> (keys: [String], intent: Intent) {
        switch mode {
        case .browse:
            let key: String = pick([
                (12, "j"), (7, "k"), (2, "g"), (2, "G"), (5, "h"), (6, "l"), (3, "Tab"), (4, "Enter"),
                (14, "e"), (6, "u"), (4, "C-r"), (3, "d"), (2, "a"), (2, "D"), (3, "/"), (2, "s"), (2, "S"),
                (4, "Escape"), (2, "BSpace"),
            ])
            switch key {
            case "u": return ([key], .undo)
            case "C-r": return ([key], .redo)
            default: return ([key], .keys)
            }
        case .edit:
            switch pick([(7, 0), (1, 1), (2, 2)]) {
            case 0:
                let token = newToken()
                return (["End", "C-u", "text:" + token, "Enter"], .commitEdit(token: token))
            case 1: return (["End", "C-u", "Enter"], .commitEmpty)
            default: return (["Escape"], .keys)
            }
        case .picker:
            switch pick([(4, 0), (3, 1), (3, 2)]) {
            case 0:
                let name = personNames[Int(rng.next() % UInt64(personNames.count))]
                return (["text:" + String(name.prefix(3)), "Enter"], .pick)
            case 1: return (["Down", "Enter"], .pick)
            default: return (["Escape"], .keys)
            }
        case .conflict:
            switch pick([(9, 0), (9, 1), (2, 2)]) {
            case 0: return (["m"], .keepMine)
            case 1: return (["t"], .takeTheirs)
            default: return (["Escape"], .keys)
            }
        case .confirmDelete:
            return pick([(6, true), (4, false)]) ? (["y"], .confirmDelete) : (["n"], .keys)
        case .filter:
            let filter: String = pick([
                (3, "qty > 500000"), (2, "note CONTAINS '9'"), (2, "owner.name BEGINSWITH 'A'"),
                (1, "qty >"), (1, "nosuchkey == 1"), (1, ""),
            ])
            return pick([(4, true), (1, false)]) ? (["End", "C-u", "text:" + filter, "Enter"], .keys) : (["Escape"], .keys)
        case .other:
            return (["Escape"], .keys)
        }
    }
}
