/// SQLite's `?` placeholders as PostgreSQL's `$1…$N`, numbered in order. Text in
/// quotes (strings, identifiers) and comments is left alone; SQL with no `?` is
/// returned as it is (the dialect's own SQL is numbered already).
enum PGPlaceholders {
    static func numbered(_ sql: String) -> String {
        guard sql.utf8.contains(UInt8(ascii: "?")) else { return sql }
        var out = ""
        var n = 0
        var quote: Character?
        var previous: Character?
        var lineComment = false
        for c in sql {
            defer { previous = c }
            if lineComment {
                if c == "\n" { lineComment = false }
            } else if let q = quote {
                if c == q { quote = nil }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "-" && previous == "-" {
                lineComment = true
            } else if c == "?" {
                n += 1
                out += "$\(n)"
                continue
            }
            out.append(c)
        }
        return out
    }
}
