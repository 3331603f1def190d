import Foundation

/// The data tables and indexes of a database as SQLite keeps them (`sqlite_master`),
/// without SQLite's and Vellum's own tables. Read from the store file for the old
/// shape, and from a scratch in-memory database holding a layout's schema for the new.
struct SchemaSnapshot {
    /// Table name → its `CREATE TABLE` text.
    var tables: [String: String] = [:]
    /// Index name → (table, `CREATE INDEX` text).
    var indexes: [String: (table: String, sql: String)] = [:]

    static func read(_ c: Connection) throws(StoreError) -> SchemaSnapshot {
        var s = SchemaSnapshot()
        let rows = try c.rows("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name NOT LIKE '\\_vellum\\_%' ESCAPE '\\'")
        for row in rows {
            guard let type = row[0].stringValue, let name = row[1].stringValue, let table = row[2].stringValue, let sql = row[3].stringValue else { continue }
            if type == "table" { s.tables[name] = sql } else if type == "index" { s.indexes[name] = (table, sql) }
        }
        return s
    }

    /// The schema `layout` creates, from a scratch in-memory database.
    static func of(_ layout: any StoreLayout) throws(StoreError) -> SchemaSnapshot {
        let scratch = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        for statement in layout.schemaSQL() { try scratch.execute(statement) }
        return try read(scratch)
    }

    func indexes(of table: String) -> [String: String] {
        var out: [String: String] = [:]
        for (name, i) in indexes where i.table == table { out[name] = i.sql }
        return out
    }

    /// The column definitions `new` adds at the end of `old` (nil: `new` is not `old` plus columns).
    static func addedColumnDefinitions(old: String, new: String) -> [String]? {
        guard old.hasSuffix(")"), new.hasSuffix(")") else { return nil }
        let head = String(old.dropLast())
        if new == old { return [] }
        guard new.hasPrefix(head) else { return nil }
        let rest = new.dropFirst(head.count).dropLast()
        guard rest.hasPrefix(",") else { return nil }
        return splitTopLevel(String(rest.dropFirst()))
    }

    /// Splits at commas outside parentheses and quotes. Scans UTF-8 bytes: every byte it
    /// looks for is ASCII, so a split never falls inside a character.
    private static func splitTopLevel(_ text: String) -> [String] {
        var parts: [String] = []
        let bytes = text.utf8
        var start = bytes.startIndex
        var depth = 0
        var quote: UInt8?
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") {
                depth -= 1
            } else if b == UInt8(ascii: ","), depth == 0 {
                parts.append(trimmed(text[start..<i]))
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        parts.append(trimmed(text[start..<i]))
        return parts
    }

    /// Without the spaces and tabs around it (Foundation's trimming bridges through NSString).
    private static func trimmed(_ part: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = part.firstIndex(where: { !blank($0) }), let last = part.lastIndex(where: { !blank($0) }) else { return "" }
        return String(part[first...last])
    }
}
