import Foundation

/// PostgreSQL's spelling. `[c]`/`[d]` folding and the sort keys of the two
/// collations are SQL functions Vellum creates in the store's schema
/// (`PostgreSQLFunctions`), generated from the same `TextFolding` the in-memory
/// evaluation uses; regular expressions are translated into PostgreSQL's own
/// (`PostgreSQLRegex`) from the same Unicode data `LinearRegex` uses.
public struct PostgreSQLDialect: SQLDialect {
    public init() {}

    /// PostgreSQL truncates longer identifiers silently (NAMEDATALEN - 1).
    public static let maximumIdentifierBytes = 63

    public func quote(_ identifier: String) -> String { identifier.enclosed(in: "\"") }

    /// With `standard_conforming_strings` (on since PostgreSQL 9.1) only the quote is special.
    public func literal(_ text: String) -> String { text.enclosed(in: "'") }

    public func placeholder(_ n: Int) -> String { "$\(n)" }

    public func placeholders(_ count: Int) -> String {
        (0..<count).map { "$\($0 + 1)" }.joined(separator: ", ")
    }

    public func fold(_ text: String, flags: Int) -> String { "vellum_fold(\(text), \(flags))" }

    /// A pattern known only when the query runs: translated by the server (`vellum_matches`,
    /// `PostgreSQLRegex+Functions.swift`).
    public func regexpMatch(pattern: String, text: String) -> String { "\(PostgreSQLRegex.serverFunction)(\(pattern), \(text))" }

    /// PostgreSQL's own spelling of the pattern (`PostgreSQLRegex`), matched by `~`: no
    /// function of the store's schema is involved, so stores of any age answer alike.
    public func regexpMatch(constantPattern pattern: String, text: String, bind: (Value) -> String) throws(StoreError) -> String {
        let translated: String
        do { translated = try PostgreSQLRegex.translate(pattern) } catch { throw .query(QueryError(error.description)) }
        return "COALESCE((\(text)) COLLATE \"C\" ~ \(bind(.string(translated))), false)"
    }

    /// Not a suffix in PostgreSQL: see `sortTerm`, which orders by `vellum_sort_key`.
    public func sortCollation(caseInsensitive: Bool) -> String { "" }

    public func limitOffset(limit: Int?, offset: Int?) -> String {
        var sql = ""
        if let limit { sql += " LIMIT \(limit)" }
        if let offset { sql += " OFFSET \(offset)" }
        return sql
    }

    public func insertIgnoringDuplicates(intoTarget target: String, columns: [String]) -> String {
        "INSERT INTO \(target) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count))) ON CONFLICT DO NOTHING"
    }

    /// Replaces the row with the same primary key: Vellum's tables name their
    /// primary key constraint `<table>_pkey` (`PostgreSQLSchema`).
    public func upsert(into table: String, columns: [String]) -> String {
        let updates = columns.map { "\(quote($0)) = EXCLUDED.\(quote($0))" }.joined(separator: ", ")
        return "INSERT INTO \(quote(table)) (\(columns.map(quote).joined(separator: ", "))) VALUES (\(placeholders(columns.count)))"
            + " ON CONFLICT ON CONSTRAINT \(quote(Self.primaryKeyConstraint(of: table))) DO UPDATE SET \(updates)"
    }

    public func returning(_ sql: String, expressions: [String]) -> String {
        sql + " RETURNING " + expressions.joined(separator: ", ")
    }

    /// The name of `table`'s primary key constraint.
    public static func primaryKeyConstraint(of table: String) -> String { table + "_pkey" }
}
