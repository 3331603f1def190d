import VellumTerminal

/// A single-line text editor over Characters (grapheme clusters), so the
/// cursor never lands inside an emoji or a combining sequence.
public struct LineEditor: Sendable, Equatable {
    public private(set) var characters: [Character]
    /// Cursor position in characters, 0...count.
    public private(set) var cursor: Int
    /// The text is a suggestion (the previous find): the first typed character
    /// replaces it; any other editing key keeps it for editing.
    public private(set) var isSuggestion = false

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    /// An editor showing `text` as a suggestion that typing replaces.
    public init(suggesting text: String) {
        self.init(text)
        isSuggestion = !text.isEmpty
    }

    public var text: String { String(characters) }

    public mutating func setText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Display column of the cursor (for placing the terminal cursor).
    public var cursorColumn: Int { DisplayWidth.of(String(characters[..<cursor])) }

    /// Applies an editing key; returns false if the key is not an editing key.
    @discardableResult
    public mutating func handle(_ key: Key) -> Bool {
        if isSuggestion, case .char = key { characters = []; cursor = 0 }
        isSuggestion = false
        switch key {
        case .char(let c): characters.insert(c, at: cursor); cursor += 1
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .alt("b"), .wordLeft: cursor = wordStart(before: cursor)
        case .alt("f"), .wordRight: cursor = wordEnd(after: cursor)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .backspace:
            if cursor > 0 { characters.remove(at: cursor - 1); cursor -= 1 }
        case .delete, .ctrl("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .ctrl("u"): characters.removeFirst(cursor); cursor = 0
        case .ctrl("k"): characters.removeLast(characters.count - cursor)
        case .ctrl("w"), .alt("\u{7F}"):   // Alt+Backspace, as in shells
            var start = cursor
            while start > 0, characters[start - 1].isWhitespace { start -= 1 }
            while start > 0, !characters[start - 1].isWhitespace { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default: return false
        }
        return true
    }

    /// Start of the word before `position` (skipping separators first).
    func wordStart(before position: Int) -> Int {
        var i = position
        while i > 0, !Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        while i > 0, Self.isWordCharacter(characters[i - 1]) { i -= 1 }
        return i
    }

    /// End of the word after `position` (skipping separators first).
    func wordEnd(after position: Int) -> Int {
        var i = position
        while i < characters.count, !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, Self.isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber || c == "_" }
}
