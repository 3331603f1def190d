import Foundation

/// Attribute types for a foreign database's columns: SQLite's affinity rules
/// (https://sqlite.org/datatype3.html §3.1) refined by common type names.
enum ForeignColumnType {
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

    /// The type of a date column by how its values are stored (50 sampled): numbers
    /// in the range of Unix seconds (1973…2200) read and write as dates unchanged;
    /// other numbers (milliseconds, Julian days) stay numbers and text (ISO-8601)
    /// stays text, shown and written exactly as stored.
    static func dateColumnType(column: String, table: String, connection: Connection) throws(StoreError) -> AttributeType {
        let c = quoteIdentifier(column)
        let rows = try connection.rows("SELECT typeof(\(c)) = 'text', \(c) FROM \(quoteIdentifier(table)) WHERE \(c) IS NOT NULL LIMIT 50")
        let numbers = rows.compactMap { row in row[0].integerValue == 0 ? row[1].integerValue.map(Double.init) ?? row[1].doubleValue : nil }
        guard !rows.isEmpty, numbers.count == rows.count else { return .string }
        return numbers.allSatisfy { $0 >= 1e8 && $0 < 7_258_118_400 } ? .date : .double
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
