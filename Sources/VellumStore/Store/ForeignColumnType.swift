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

    /// True when every sampled non-null value of a date column is a number in
    /// the range of Unix seconds (1900…2200): those read and write as dates
    /// unchanged. Text (ISO-8601), milliseconds and Julian days stay as stored.
    static func storesUnixSeconds(column: String, table: String, connection: Connection) throws(StoreError) -> Bool {
        let c = quoteIdentifier(column)
        let sql = "SELECT typeof(\(c)) = 'text', \(c) FROM \(quoteIdentifier(table)) WHERE \(c) IS NOT NULL LIMIT 50"
        let rows = try connection.rows(sql)
        guard !rows.isEmpty else { return false }
        return rows.allSatisfy { row in
            guard row[0].integerValue == 0, let n = row[1].integerValue.map(Double.init) ?? row[1].doubleValue else { return false }
            return n > -2_208_988_800 && n < 7_258_118_400
        }
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
