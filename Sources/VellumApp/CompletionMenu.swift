import VellumTerminal

/// The `:` line's completion menu, as a pure function of the line and the state, so
/// the reducer (Tab, Shift-Tab) and the renderer agree: the word being typed (the
/// command name, or the first argument of a command that takes a name: `:theme`,
/// `:goto`, `:sort`…) and the candidates that start with it.
public struct CompletionMenu: Sendable, Equatable {
    /// The line before the word: "" for a command name, else the name and a space.
    public let head: String
    /// What is typed of the word.
    public let prefix: String
    /// The candidates starting with `prefix` (case-insensitively), in the command's order.
    public let matches: [String]

    /// nil where nothing completes: a later argument, an unknown command, a command
    /// taking no argument.
    public init?(line: String, in s: AppState) {
        let endsWithSpace = line.last?.isWhitespace ?? false
        let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let candidates: [String]
        if words.isEmpty || (words.count == 1 && !endsWithSpace) {
            head = ""
            prefix = words.first ?? ""
            candidates = CommandTable.typedNames
        } else {
            let argumentIndex = endsWithSpace ? words.count - 1 : words.count - 2
            guard argumentIndex == 0, let command = CommandTable.typed(words[0]) else { return nil }
            head = words[0] + " "
            prefix = endsWithSpace ? "" : words[1]
            candidates = command.completion.candidates(in: s)
            if candidates.isEmpty { return nil }
        }
        let typed = prefix.lowercased()
        matches = candidates.filter { $0.lowercased().hasPrefix(typed) }
    }

    /// Whether the menu shows under the line: there is something to choose besides
    /// what is typed. (A bare `:` does not list every command; its first letter does.)
    public var isShown: Bool {
        if head.isEmpty && prefix.isEmpty { return false }
        if matches.count == 1 && matches[0].lowercased() == prefix.lowercased() { return false }
        return !matches.isEmpty
    }

    /// The longest start every match shares (case-insensitively), in the first match's spelling.
    public var commonPrefix: String {
        guard var common = matches.first.map(Array.init) else { return "" }
        for match in matches.dropFirst() {
            let other = Array(match)
            var n = 0
            while n < common.count, n < other.count, String(common[n]).lowercased() == String(other[n]).lowercased() { n += 1 }
            common = Array(common.prefix(n))
        }
        return String(common)
    }

    /// The menu's rows at most: a third of the screen, never fewer than three.
    public static func maxRows(screenRows: Int) -> Int { max(3, (screenRows - 4) / 3) }

    /// The matches shown, `rows` at most, scrolled so `selected` is in view. O(1).
    public func window(selected: Int?, rows: Int) -> Range<Int> {
        let rows = max(1, rows)
        guard matches.count > rows else { return 0..<matches.count }
        let first = min(max(0, (selected ?? 0) - rows + 1), matches.count - rows)
        return first..<(first + rows)
    }
}

/// Tab walking the completion menu: the line as typed before the first step (the
/// menu stays the one for it) and the match now in the line.
public struct CompletionCycle: Sendable, Equatable {
    public var line: String
    public var index: Int
}
