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
    /// `regexpMatch` for a pattern known when the SQL is written (ICU syntax, folded
    /// already); `bind` binds a value and gives its placeholder. Throws when the
    /// pattern does not compile (`.query`), as memory would.
    func regexpMatch(constantPattern pattern: String, text: String, bind: (Value) -> String) throws(StoreError) -> String
    /// The suffix that orders a string term case-insensitively (`[c]`) or localized.
    func sortCollation(caseInsensitive: Bool) -> String
    /// The clause ending a SELECT to take `limit` rows after skipping `offset` (empty for neither).
    func limitOffset(limit: Int?, offset: Int?) -> String
    /// An INSERT that does nothing when the row's key already exists.
    /// `target`: the table as written in SQL, already quoted (`main."t"`).
    func insertIgnoringDuplicates(intoTarget target: String, columns: [String]) -> String
    /// An INSERT that replaces the row with the same key.
    func upsert(into table: String, columns: [String]) -> String
    /// `sql` (an INSERT, UPDATE or DELETE) also returning `expressions` over the rows it wrote
    /// (`returning(_:columns:)` for plain columns).
    func returning(_ sql: String, expressions: [String]) -> String

    // The query compiler's pieces; SQLite's spelling is the default (`SQLDialect+Conditions.swift`).
    /// A condition that always holds / never holds.
    var trueCondition: String { get }
    var falseCondition: String { get }
    /// True when `a` and `b` are equal or both NULL (never NULL itself), and its negation.
    func isSame(_ a: String, _ b: String) -> String
    func isDistinct(_ a: String, _ b: String) -> String
    /// An attribute column of `type` as predicates compare and sort it (decimals as doubles).
    func comparable(_ column: String, type: AttributeType) -> String
    /// `l op r` for `+ - * /` with `ValueArithmetic`'s rules (overflow to double, `x / 0` NULL).
    func arithmetic(_ op: String, _ l: String, _ r: String) -> String
    /// Conditions (never NULL) on text: `text` contains, begins with, ends with `part` (on UTF-8 bytes).
    func contains(_ text: String, _ part: String) -> String
    /// `contains(fold(text, flags), fold(part, flags))`, which a dialect may spell as one
    /// function (SQLite: no folded copy of every row's text is made).
    func foldedContains(_ text: String, _ part: String, flags: Int) -> String
    func beginsWith(_ text: String, _ part: String) -> String
    func endsWith(_ text: String, _ part: String) -> String
    /// The sum of `value` over rows as a double, 0 for none (SQLite's `TOTAL`).
    func total(_ value: String) -> String
    /// The mean of `value` (a `comparable` attribute of `type`) over rows as a double
    /// (dates as seconds since 1970), NULL for none.
    func average(_ value: String, type: AttributeType) -> String
    /// `value` (a `comparable` attribute of `type`) as a double: dates as seconds since 1970.
    func number(_ value: String, type: AttributeType) -> String
    /// A subquery of the members of the JSON array bound to `parameter`; nil to have lists spelled out.
    func jsonArrayMembers(_ parameter: String) -> String?
    /// The ORDER BY term(s) for `term`: `caseInsensitive` nil orders by bytes, true as
    /// `VELLUM_NOCASE`, false as `VELLUM_LOCALIZED`; NULL comes first ascending.
    func orderTerm(_ term: String, caseInsensitive: Bool?, ascending: Bool) -> String
}

/// SQLite's spelling. Case and diacritic folding, regular expressions and the
/// two sort collations are functions Vellum registers on every connection (`SQLFunctions`).
public struct SQLiteDialect: SQLDialect {
    public init() {}

    public func quote(_ identifier: String) -> String {
        identifier.enclosed(in: "\"")
    }

    public func literal(_ text: String) -> String {
        text.enclosed(in: "'")
    }

    public func placeholder(_ n: Int) -> String { "?\(n)" }

    public func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    public func fold(_ text: String, flags: Int) -> String { "vellum_fold(\(text), \(flags))" }

    /// `vellum_contains_folded` (`SQLFunctions`): the same answer as
    /// `instr(vellum_fold(text), vellum_fold(part)) > 0`, without a folded copy per row.
    public func foldedContains(_ text: String, _ part: String, flags: Int) -> String {
        "vellum_contains_folded(\(text), \(part), \(flags))"
    }

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

    public func insertIgnoringDuplicates(intoTarget target: String, columns: [String]) -> String {
        "INSERT OR IGNORE INTO \(target) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    public func upsert(into table: String, columns: [String]) -> String {
        "INSERT OR REPLACE INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
    }

    public func returning(_ sql: String, expressions: [String]) -> String {
        sql + " RETURNING " + expressions.joined(separator: ", ")
    }
}

extension SQLDialect {
    /// `sql` (an INSERT, UPDATE or DELETE) also returning `columns` of the rows it wrote.
    public func returning(_ sql: String, columns: [String]) -> String {
        returning(sql, expressions: columns.map(quote))
    }
}

extension SQLDialect {
    /// An INSERT that skips rows whose key or unique columns already exist, into `table` (quoted here).
    public func insertIgnoringDuplicates(into table: String, columns: [String]) -> String {
        insertIgnoringDuplicates(intoTarget: quote(table), columns: columns)
    }
}
