import Foundation

/// How one SQL engine spells the pieces Vellum's generated SQL is made of, so
/// that the query compiler, the save writer, the loaders and the layout can
/// later emit another engine's SQL (PostgreSQL) by swapping the dialect.
public protocol SQLDialect: Sendable {
    /// A quoted identifier; any name (quotes, spaces, keywords) is safe.
    func quote(_ identifier: String) -> String
    /// A quoted string literal.
    func literal(_ text: String) -> String
    /// The `n`th (1-based) parameter, usable more than once in one statement.
    func placeholder(_ n: Int) -> String
    /// `count` positional parameters separated by commas.
    func placeholders(_ count: Int) -> String
    /// `text` folded for a `[c]`/`[d]` comparison: `flags` 1 = case, 2 = diacritics, 3 = both.
    func fold(_ text: String, flags: Int) -> String
    /// True when `pattern` (a regular expression) matches `text`, both SQL expressions.
    func regexpMatch(pattern: String, text: String) -> String
    /// The suffix that orders a string term case-insensitively (`[c]`) or localized.
    func sortCollation(caseInsensitive: Bool) -> String
    /// The clause ending a SELECT to take `limit` rows after skipping `offset` (empty for neither).
    func limitOffset(limit: Int?, offset: Int?) -> String
    /// An INSERT that does nothing when the row's key already exists.
    func insertIgnoringDuplicates(into table: String, columns: [String]) -> String
    /// An INSERT that replaces the row with the same key.
    func upsert(into table: String, columns: [String]) -> String
    /// `sql` (an INSERT, UPDATE or DELETE) also returning `columns` of the rows it wrote.
    func returning(_ sql: String, columns: [String]) -> String
}

/// SQLite's spelling. Case and diacritic folding, regular expressions and the
/// two sort collations are functions Vellum registers on every connection (`SQLFunctions`).
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func quote(_ identifier: String) -> String {
        identifier.utf8.contains(34) ? "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : "\"" + identifier + "\""
    }

    public func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    public func placeholder(_ n: Int) -> String { "?\(n)" }

    public func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    public func fold(_ text: String, flags: Int) -> String { "vellum_fold(\(text), \(flags))" }

    public func regexpMatch(pattern: String, text: String) -> String { "vellum_regexp(\(pattern), \(text))" }

    public func sortCollation(caseInsensitive: Bool) -> String {
        caseInsensitive ? " COLLATE VELLUM_NOCASE" : " COLLATE VELLUM_LOCALIZED"
    }

    public func limitOffset(limit: Int?, offset: Int?) -> String {
        var sql = ""
        if let limit { sql += " LIMIT \(limit)" }
        // SQLite has no OFFSET without LIMIT; -1 means no limit.
        if let offset { sql += (limit == nil ? " LIMIT -1" : "") + " OFFSET \(offset)" }
        return sql
    }

    public func insertIgnoringDuplicates(into table: String, columns: [String]) -> String {
        "INSERT OR IGNORE INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    public func upsert(into table: String, columns: [String]) -> String {
        "INSERT OR REPLACE INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    public func returning(_ sql: String, columns: [String]) -> String {
        sql + " RETURNING " + columns.map(quote).joined(separator: ", ")
    }
}
