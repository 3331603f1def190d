import Foundation

/// SQLite's spelling of the query compiler's pieces: conditions are integers
/// 0/1, `IS` compares NULL-safely, and `vellum_*` functions and collations are
/// registered on every connection (`SQLFunctions`).
extension SQLDialect {
    public var trueCondition: String { "1" }
    public var falseCondition: String { "0" }

    public func isSame(_ a: String, _ b: String) -> String { "\(a) IS \(b)" }
    public func isDistinct(_ a: String, _ b: String) -> String { "\(a) IS NOT \(b)" }

    public func comparable(_ column: String, type: AttributeType) -> String {
        type == .decimal ? "CAST(\(column) AS REAL)" : column
    }

    /// SQLite's own arithmetic already follows these rules; `/` needs a real on the left (3 / 2 is 1.5) and gives NULL for x / 0.
    public func arithmetic(_ op: String, _ l: String, _ r: String) -> String {
        op == "/" ? "(CAST(\(l) AS REAL) / \(r))" : "(\(l) \(op) \(r))"
    }

    public func contains(_ text: String, _ part: String) -> String { "COALESCE(instr(\(text), \(part)) > 0, 0)" }

    /// The pattern itself, bound: `vellum_regexp` runs `LinearRegex`, as memory does.
    public func regexpMatch(constantPattern pattern: String, text: String, bind: (Value) -> String) throws(StoreError) -> String {
        regexpMatch(pattern: bind(.string(pattern)), text: text)
    }

    /// Folding both sides, then `contains`: any dialect's spelling (SQLite's is one function).
    public func foldedContains(_ text: String, _ part: String, flags: Int) -> String {
        contains(fold(text, flags: flags), fold(part, flags: flags))
    }

    // On bytes, as in memory: SQLite's length() of text stops at a NUL (and substr of an empty blob is NULL).
    public func beginsWith(_ text: String, _ part: String) -> String {
        let (bx, by) = ("CAST(\(text) AS BLOB)", "CAST(\(part) AS BLOB)")
        return "COALESCE(\(text) IS NOT NULL AND (length(\(by)) = 0 OR substr(\(bx), 1, length(\(by))) = \(by)), 0)"
    }

    public func endsWith(_ text: String, _ part: String) -> String {
        let (bx, by) = ("CAST(\(text) AS BLOB)", "CAST(\(part) AS BLOB)")
        return "COALESCE(\(text) IS NOT NULL AND (length(\(by)) = 0 OR substr(\(bx), -length(\(by))) = \(by)), 0)"
    }

    public func total(_ value: String) -> String { "TOTAL(\(value))" }

    public func average(_ value: String, type: AttributeType) -> String { "avg(\(value))" }

    /// Dates are stored as seconds since 1970 (REAL), numbers as numbers.
    public func number(_ value: String, type: AttributeType) -> String { value }

    public func jsonArrayMembers(_ parameter: String) -> String? { "SELECT value FROM json_each(\(parameter))" }

    public func orderTerm(_ term: String, caseInsensitive: Bool?, ascending: Bool) -> String {
        term + (caseInsensitive.map { sortCollation(caseInsensitive: $0) } ?? "") + (ascending ? " ASC" : " DESC")
    }
}
