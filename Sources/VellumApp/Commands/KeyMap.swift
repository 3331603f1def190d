import VellumTerminal

/// Which key runs which command: the table's default keys, changed by the
/// user's bindings file. The reducer dispatches through it, and help and the
/// hint bar show its keys, so they show what the keys really do.
public struct KeyMap: Sendable, Equatable {
    private var commandByKey: [Key: String] = [:]
    /// Keys per command in the order they were bound (defaults first, then the user's).
    private var keysByCommand: [String: [Key]] = [:]

    public static let defaults: KeyMap = {
        var map = KeyMap()
        for command in CommandTable.all {
            for key in command.defaultKeys { map.bind(key, to: command.name) }
        }
        return map
    }()

    /// The command a key runs, if any.
    public func command(for key: Key) -> Command? {
        commandByKey[key].flatMap(CommandTable.named)
    }

    public func action(for key: Key) -> KeyAction? { command(for: key)?.action }

    /// The keys that run the command, the user's own first (a key the bindings file
    /// bound is the one they use, so the hint bar and help name it), then the defaults still bound.
    public func keys(for name: String) -> [Key] {
        let bound = keysByCommand[name] ?? []
        let defaults = CommandTable.named(name)?.defaultKeys ?? []
        return bound.filter { !defaults.contains($0) } + bound.filter { defaults.contains($0) }
    }

    /// How help writes the keys of a command ("" when none is bound).
    public func label(for name: String) -> String { keys(for: name).map(KeyName.label).joined(separator: " ") }

    /// Binds `key` to the command `name`, taking it from the command it ran before.
    public mutating func bind(_ key: Key, to name: String) {
        unbind(key)
        commandByKey[key] = name
        keysByCommand[name, default: []].append(key)
    }

    public mutating func unbind(_ key: Key) {
        guard let old = commandByKey.removeValue(forKey: key) else { return }
        keysByCommand[old]?.removeAll { $0 == key }
    }

    /// The browse hint bar.
    public var hint: String { hintLine(CommandTable.hintBar) }

    /// A hint line: each group's first keys (the user's, if bound), then its word; unbound groups are left out.
    func hintLine(_ groups: [(names: [String], word: String)]) -> String {
        groups.compactMap { group in
            let labels = group.names.compactMap { keys(for: $0).first.map(KeyName.label) }
            return labels.isEmpty ? nil : labels.joined(separator: "/") + " " + group.word
        }.joined(separator: "  ")
    }
}
