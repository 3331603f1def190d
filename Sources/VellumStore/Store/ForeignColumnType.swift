import Foundation

/// Attribute types for a foreign database's columns: SQLite's affinity rules
/// (https://sqlite.org/datatype3.html §3.1) refined by common type names.
enum ForeignColumnType {
    /// SQLite's own affinity for a declared type (its rules, in their order).
    static func affinity(declared: String) -> String {
        let t = declared.uppercased()
        if t.contains("INT") { return "INTEGER" }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return "TEXT" }
        if t.isEmpty || t.contains("BLOB") { return "BLOB" }
        if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") { return "REAL" }
        return "NUMERIC"
    }

    static func attributeType(declared: String) -> AttributeType {
        let t = declared.uppercased()
        let base = t.split(separator: "(").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        if ["BOOLEAN", "BOOL"].contains(base) { return .boolean }
        if ["DATE", "DATETIME", "TIMESTAMP"].contains(base) { return .date }
        if t.contains("INT") { return .integer64 }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") || base == "JSON" || base == "UUID" { return .string }
        if t.contains("BLOB") { return .binary }
        if t.isEmpty { return .string }
        // REAL affinity, and NUMERIC/DECIMAL: SQLite stores those as integers or reals,
        // never as exact decimals, so they read and write as doubles.
        return .double
    }

    /// The type of a date column and how its dates are stored, from 50 sampled
    /// values (`ForeignDateStorage.infer`): dates when they are all ISO-8601 text,
    /// Unix seconds or milliseconds, or Julian days; otherwise numbers stay numbers
    /// and anything else text, shown exactly as stored. An empty column is taken
    /// to hold SQLite's own text form (`date()` for `DATE`, `datetime()` otherwise).
    static func dateColumnType(column: String, declared: String, table: String,
                               connection: Connection) throws(StoreError) -> (AttributeType, ForeignDateStorage?) {
        let c = quoteIdentifier(column)
        let samples = try connection.rows("SELECT \(c) FROM \(quoteIdentifier(table)) WHERE \(c) IS NOT NULL AND \(c) <> ''\(SQLiteDialect().limitOffset(limit: 50, offset: nil))").map { $0[0] }
        if samples.isEmpty {
            let pattern = declared.uppercased().hasPrefix("DATETIME") || !declared.uppercased().hasPrefix("DATE") ? "YYYY-MM-DD HH:MM:SS" : "YYYY-MM-DD"
            return (.date, ForeignDateTextStyle(pattern: pattern).map(ForeignDateStorage.text))
        }
        if let storage = ForeignDateStorage.infer(samples: samples) { return (.date, storage) }
        return (samples.allSatisfy { $0.doubleValue != nil } ? .double : .string, nil)
    }

    /// The value of a DEFAULT clause that is a literal (number, string, NULL,
    /// TRUE/FALSE); nil for expressions such as CURRENT_TIMESTAMP, which SQLite fills.
    static func literal(_ sql: String) -> Value? {
        let text = sql.trimmingCharacters(in: .whitespaces)
        if let i = Int64(text) { return .integer(i) }
        if let d = Double(text) { return .double(d) }
        switch text.uppercased() {
        case "TRUE": return .integer(1)
        case "FALSE": return .integer(0)
        default: break
        }
        if text.count >= 2, text.hasPrefix("'"), text.hasSuffix("'") {
            return .string(String(text.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'"))
        }
        return nil
    }
}
