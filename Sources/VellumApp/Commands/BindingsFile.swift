import Foundation
import VellumTerminal

/// The user's key bindings file: `$XDG_CONFIG_HOME/vellum/keys`, else
/// `~/.config/vellum/keys`. One instruction a line, `#` starts a comment:
///
///     bind KEY COMMAND     # KEY now runs COMMAND (a name from docs/keys.md), in COMMAND's mode
///     unbind KEY           # KEY does nothing in lists
///     unbind KEY MODE      # ... or in a prompt or overlay (line, question, conflict, picker, summary, columns)
///
/// A line that cannot be used is reported (file, line, reason) and skipped;
/// the other lines still apply, so a typo never keeps the browser from starting.
public struct BindingsFile: Sendable {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var line: Int
        public var reason: String
        public var description: String { "\(path) line \(line): \(reason)" }
    }

    public var keyMap: KeyMap
    public var problems: [Problem]

    /// Where the file is looked for, from the environment (nil without HOME or XDG_CONFIG_HOME).
    public static func path(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], !xdg.isEmpty { return xdg + "/vellum/keys" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/vellum/keys" }
        return nil
    }

    /// The defaults changed by the file; no file means the defaults.
    public static func load(environment: [String: String]) -> BindingsFile {
        guard let path = path(environment: environment), FileManager.default.fileExists(atPath: path) else {
            return BindingsFile(keyMap: .defaults, problems: [])
        }
        do {
            return parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
        } catch {
            let reason = "cannot be read (\(error.localizedDescription)); using the default keys"
            return BindingsFile(keyMap: .defaults, problems: [Problem(path: path, line: 0, reason: reason)])
        }
    }

    public static func parse(_ text: String, path: String) -> BindingsFile {
        var map = KeyMap.defaults
        var problems: [Problem] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words = raw.split(whereSeparator: \.isWhitespace).map(String.init)
            // A word starting with # begins a comment, except in the KEY place (`bind # help`).
            if let comment = words.indices.first(where: { words[$0].hasPrefix("#") && $0 != 1 }) { words = Array(words[..<comment]) }
            guard !words.isEmpty else { continue }
            if let reason = apply(words, to: &map) {
                problems.append(Problem(path: path, line: index + 1, reason: reason))
            }
        }
        return BindingsFile(keyMap: map, problems: problems)
    }

    /// Applies one instruction; returns why it cannot be, or nil.
    private static func apply(_ words: [String], to map: inout KeyMap) -> String? {
        switch words[0] {
        case "bind":
            guard words.count == 3 else { return "expected 'bind KEY COMMAND', found \(words.count - 1) word(s) after bind" }
            guard let key = KeyName.parse(words[1]) else { return "unknown key '\(words[1])'" }
            guard let command = CommandTable.named(words[2]) else { return "unknown command '\(words[2])'" }
            guard command.isBindable else { return "command '\(command.name)' takes an argument and is typed after ':'; it cannot be bound to a key" }
            if command.mode.typesText, case .char(let c) = key, c != " " {
                return "'\(c)' is typed as text in the \(command.mode.rawValue) mode; bind a control key, F-key or named key to \(command.name)"
            }
            map.bind(key, to: command.name)
        case "unbind":
            guard words.count == 2 || words.count == 3 else { return "expected 'unbind KEY' or 'unbind KEY MODE'" }
            guard let key = KeyName.parse(words[1]) else { return "unknown key '\(words[1])'" }
            guard let mode = words.count == 3 ? KeyMode(rawValue: words[2]) : .browse else {
                return "unknown mode '\(words[2])' (expected \(KeyMode.allCases.map(\.rawValue).joined(separator: ", ")))"
            }
            map.unbind(key, in: mode)
        default:
            return "unknown instruction '\(words[0])' (expected bind or unbind)"
        }
        return nil
    }

    /// The message the browser shows for the problems (nil when there are none).
    public var summary: String? {
        guard let first = problems.first else { return nil }
        let more = problems.count > 1 ? " (and \(problems.count - 1) more problem\(problems.count > 2 ? "s" : ""))" : ""
        return "key bindings: \(first)\(more)"
    }
}
