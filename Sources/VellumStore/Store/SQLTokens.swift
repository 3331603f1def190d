import Foundation

/// SQL text cut into tokens: words, quoted names (`"…"`, `[…]`, `` `…` ``), string
/// literals, numbers and single punctuation; comments and whitespace dropped.
/// Enough to find clauses in a stored `CREATE` statement, not a parser.
struct SQLTokens {
    struct Token {
        var text: String
        /// Character offsets into the source.
        var start: String.Index, end: String.Index
        var isQuotedName: Bool

        func isWord(_ word: String) -> Bool { !isQuotedName && text.caseInsensitiveCompare(word) == .orderedSame }

        /// The name this token spells, unquoted; nil for literals and punctuation.
        var identifier: String? {
            if isQuotedName { return String(text.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"") }
            guard let first = text.first, first.isLetter || first == "_" else { return nil }
            return text
        }
    }

    let source: String
    private(set) var items: [Token] = []

    init(_ source: String) {
        self.source = source
        var i = source.startIndex
        func next(_ j: String.Index) -> String.Index { source.index(after: j) }
        while i < source.endIndex {
            let c = source[i]
            if c.isWhitespace { i = next(i); continue }
            if source[i...].hasPrefix("--") { i = source[i...].firstIndex(of: "\n") ?? source.endIndex; continue }
            if source[i...].hasPrefix("/*") {
                i = source.range(of: "*/", range: next(i)..<source.endIndex)?.upperBound ?? source.endIndex
                continue
            }
            let start = i
            var quoted = false
            if let close = ["\"": "\"", "[": "]", "`": "`", "'": "'"][String(c)] {
                quoted = c != "'"
                i = next(i)
                while i < source.endIndex {
                    if String(source[i]) == close {
                        let after = next(i)
                        // A doubled quote stands for itself (not for `]`).
                        if close != "]", after < source.endIndex, String(source[after]) == close { i = next(after); continue }
                        i = after
                        break
                    }
                    i = next(i)
                }
            } else if c.isLetter || c.isNumber || c == "_" || c == "$" {
                while i < source.endIndex, source[i].isLetter || source[i].isNumber || source[i] == "_" || source[i] == "$" || source[i] == "." && c.isNumber {
                    i = next(i)
                }
            } else {
                i = next(i)
            }
            var text = String(source[start..<i])
            if text.hasPrefix("[") { text = "\"" + text.dropFirst().dropLast() + "\"" }
            if text.hasPrefix("`") { text = "\"" + text.dropFirst().dropLast() + "\"" }
            items.append(Token(text: text, start: start, end: i, isQuotedName: quoted))
        }
    }

    /// The index of the `)` closing the `(` at `open`.
    func matchingParenthesis(_ open: Int) -> Int? {
        var depth = 0
        for j in open..<items.count {
            if items[j].text == "(" { depth += 1 }
            if items[j].text == ")" { depth -= 1; if depth == 0 { return j } }
        }
        return nil
    }

    /// The source text from token `first` to before token `end`, as written.
    func text(from first: Int, to end: Int) -> String {
        guard first < end else { return "" }
        return String(source[items[first].start..<items[end - 1].end])
    }
}
