import Foundation

/// PostgreSQL's spelling of the query compiler's pieces: conditions are
/// booleans, text compares by bytes (`COLLATE "C"`), and arithmetic goes through
/// `vellum_arith`/`vellum_divide` so that integer overflow and division by zero
/// give what SQLite and memory give, not an error.
extension PostgreSQLDialect {
    public var trueCondition: String { "true" }
    public var falseCondition: String { "false" }

    public func isSame(_ a: String, _ b: String) -> String { "\(a) IS NOT DISTINCT FROM \(b)" }
    public func isDistinct(_ a: String, _ b: String) -> String { "\(a) IS DISTINCT FROM \(b)" }

    /// Decimals compare as doubles and booleans as 0 and 1, as in memory.
    public func comparable(_ column: String, type: AttributeType) -> String {
        switch type {
        case .decimal: return "(\(column))::float8"
        case .boolean: return "(\(column))::int"
        default: return column
        }
    }

    public func arithmetic(_ op: String, _ l: String, _ r: String) -> String {
        // A bare NULL has no type to choose an overload by.
        func typed(_ sql: String) -> String { sql == "NULL" ? "NULL::bigint" : sql }
        if op == "/" { return "vellum_divide(\(typed(l)), \(typed(r)))" }
        return "vellum_arith(\(literal(op)), \(typed(l)), \(typed(r)))"
    }

    // Valid UTF-8 is self-synchronizing: a prefix or suffix by characters is one by bytes.
    public func contains(_ text: String, _ part: String) -> String { "COALESCE(strpos(\(text), \(part)) > 0, false)" }
    public func beginsWith(_ text: String, _ part: String) -> String { "COALESCE(starts_with(\(text), \(part)), false)" }
    public func endsWith(_ text: String, _ part: String) -> String { "COALESCE(right(\(text), length(\(part))) = \(part), false)" }

    public func total(_ value: String) -> String { "COALESCE(SUM((\(value))::float8), 0::float8)" }

    /// `avg` of integers is numeric, and of `timestamptz` does not exist: both as float8.
    public func average(_ value: String, type: AttributeType) -> String {
        type == .date ? "avg(EXTRACT(EPOCH FROM \(value))::float8)" : "avg((\(value))::float8)"
    }

    public func number(_ value: String, type: AttributeType) -> String {
        type == .date ? "EXTRACT(EPOCH FROM \(value))::float8" : "(\(value))::float8"
    }

    /// Lists are spelled out: a JSON array's members are text, not the integers or text they were.
    public func jsonArrayMembers(_ parameter: String) -> String? { nil }

    /// SQLite puts NULL first ascending; the collations order by `vellum_fold` and
    /// `vellum_sort_key`, then by bytes, as `TextFolding.compareCollated` does.
    public func orderTerm(_ term: String, caseInsensitive: Bool?, ascending: Bool) -> String {
        let direction = ascending ? " ASC NULLS FIRST" : " DESC NULLS LAST"
        switch caseInsensitive {
        case nil: return term + direction
        case true?: return "vellum_fold(\(term), 1) COLLATE \"C\"\(direction), \(term) COLLATE \"C\"\(direction)"
        case false?: return "vellum_sort_key(\(term))\(direction), \(term) COLLATE \"C\"\(direction)"
        }
    }
}
