import VellumTerminal

/// Which key runs which command: the table's default keys, changed by the
/// user's bindings file. The reducer dispatches through it, and help and the
/// hint bar show its keys, so they show what the keys really do.
public struct KeyMap: Sendable, Equatable {
    /// Per mode (lists, each prompt and overlay): which command a key runs there.
    private var commandByKey: [KeyMode: [Key: String]] = [:]
    /// Keys per command in the order they were bound (defaults first, then the user's).
    private var keysByCommand: [String: [Key]] = [:]

    public static let defaults: KeyMap = {
        var map = KeyMap()
        for command in CommandTable.all {
            for key in command.defaultKeys { map.bind(key, to: command.name) }
        }
        return map
    }()

    /// The command a key runs in `mode` (lists unless said), if any.
    public func command(for key: Key, in mode: KeyMode = .browse) -> Command? {
        commandByKey[mode]?[key].flatMap(CommandTable.named)
    }

    public func action(for key: Key) -> KeyAction? { command(for: key)?.action }

    /// What a key does in a prompt or overlay, if it is bound there.
    public func modeAction(for key: Key, in mode: KeyMode) -> ModeAction? { command(for: key, in: mode)?.modeAction }

    /// The keys that run the command, the user's own first (a key the bindings file
    /// bound is the one they use, so the hint bar and help name it), then the defaults still bound.
    public func keys(for name: String) -> [Key] {
        let bound = keysByCommand[name] ?? []
        let defaults = CommandTable.named(name)?.defaultKeys ?? []
        return bound.filter { !defaults.contains($0) } + bound.filter { defaults.contains($0) }
    }

    /// How help writes the keys of a command ("" when none is bound).
    public func label(for name: String) -> String { keys(for: name).map(KeyName.label).joined(separator: " ") }

    /// The first key of the command as help writes it, nil when none is bound.
    public func firstLabel(for name: String) -> String? { keys(for: name).first.map(KeyName.label) }

    /// Binds `key` to the command `name` in the command's mode, taking it from the
    /// command it ran there before.
    public mutating func bind(_ key: Key, to name: String) {
        let mode = CommandTable.named(name)?.mode ?? .browse
        unbind(key, in: mode)
        commandByKey[mode, default: [:]][key] = name
        keysByCommand[name, default: []].append(key)
    }

    public mutating func unbind(_ key: Key, in mode: KeyMode = .browse) {
        guard let old = commandByKey[mode]?.removeValue(forKey: key) else { return }
        keysByCommand[old]?.removeAll { $0 == key }
    }

    /// The browse hint bar, every hint.
    public var hint: String { hint(width: .max) }

    /// The browse hint bar in `width` columns: the help and quit keys (as bound) end
    /// it at every width; the other hints keep their order, and when they do not fit
    /// the least important (`CommandTable.hintBar`'s `drop`) give way first.
    public func hint(width: Int) -> String {
        let pinned = hintLine(CommandTable.hintBarPinned)
        var shown = CommandTable.hintBar
        func line() -> String {
            [hintLine(shown.map { ($0.names, $0.word) }), pinned].filter { !$0.isEmpty }.joined(separator: "  ")
        }
        while DisplayWidth.of(line()) > width, let least = shown.indices.max(by: { shown[$0].drop < shown[$1].drop }) {
            shown.remove(at: least)
        }
        return line()
    }

    /// A hint line: each group's first keys (the user's, if bound), then its word; unbound groups are left out.
    func hintLine(_ groups: [(names: [String], word: String)], separator: String = "  ") -> String {
        groups.compactMap { group in
            let labels = group.names.compactMap { firstLabel(for: $0) }
            return labels.isEmpty ? nil : labels.joined(separator: "/") + " " + group.word
        }.joined(separator: separator)
    }
}
