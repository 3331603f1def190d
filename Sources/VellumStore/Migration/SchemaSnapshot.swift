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

    /// The schema `statements` create, run in a scratch in-memory database and read back.
    static func scratch(_ statements: [String]) throws(StoreError) -> SchemaSnapshot {
        let scratch = try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false))
        for statement in statements { try scratch.execute(statement) }
        return try read(scratch)
    }

    func indexes(of table: String) -> [String: String] {
        var out: [String: String] = [:]
        for (name, i) in indexes where i.table == table { out[name] = i.sql }
        return out
    }

    /// The column definitions `new` adds at the end of `old` (nil: `new` is not `old` plus columns).
    static func addedColumnDefinitions(old: String, new: String) -> [String]? {
        // Compared as bytes: the texts are SQL, and String's prefix test compares characters
        // (canonical equivalence), a tenth of a small migration.
        let o = old.utf8, n = new.utf8
        guard o.last == UInt8(ascii: ")"), n.last == UInt8(ascii: ")") else { return nil }
        if o.elementsEqual(n) { return [] }
        guard n.count > o.count, n.starts(with: o.dropLast()) else { return nil }
        let comma = n.index(n.startIndex, offsetBy: o.count - 1)
        guard n[comma] == UInt8(ascii: ",") else { return nil }
        return splitTopLevel(String(decoding: n[n.index(after: comma)..<n.index(before: n.endIndex)], as: UTF8.self))
    }

    /// Splits at commas outside parentheses and quotes.
    private static func splitTopLevel(_ text: String) -> [String] {
        split(text, at: UInt8(ascii: ",")).map(trimmed)
    }

    /// `text` cut at each `separator` outside quotes and parentheses. Scans UTF-8 bytes:
    /// every byte it looks for is ASCII, so a cut never falls inside a character.
    private static func split(_ text: String, at separator: UInt8) -> [Substring] {
        var parts: [Substring] = []
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
            } else if b == separator, depth == 0 {
                parts.append(text[start..<i])
                start = bytes.index(after: i)
            }
            i = bytes.index(after: i)
        }
        parts.append(text[start...])
        return parts
    }

    /// Without the spaces and tabs around it (Foundation's trimming bridges through NSString).
    private static func trimmed(_ part: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = part.firstIndex(where: { !blank($0) }), let last = part.lastIndex(where: { !blank($0) }) else { return "" }
        return String(part[first...last])
    }
}

extension SchemaSnapshot {
    /// The schema `layout` creates. Vellum's own statements (`CREATE TABLE "t" (…)`,
    /// `CREATE [UNIQUE] INDEX "i" ON "t" …`) are kept by SQLite exactly as written, so
    /// they are read as they are; a layout with any other statement is run in a scratch
    /// in-memory database and read back (a connection and a parse of every statement:
    /// most of a small migration's fixed cost).
    static func of(_ layout: any StoreLayout) throws(StoreError) -> SchemaSnapshot {
        let statements = layout.schemaSQL()
        if let known = fromStatements(statements) { return known }
        return try scratch(statements)
    }

    /// The schema `statements` make, read from the statements themselves; nil when one
    /// is not in the form whose text SQLite keeps as it is.
    static func fromStatements(_ statements: [String]) -> SchemaSnapshot? {
        var s = SchemaSnapshot()
        for statement in statements.flatMap({ split($0, at: UInt8(ascii: ";")) }) {
            var text = statement
            while let first = text.first, first == " " || first == "\n" || first == "\t" { text.removeFirst() }
            while let last = text.last, last == " " || last == "\n" || last == "\t" { text.removeLast() }
            if text.isEmpty { continue }
            if startsWith(text, "CREATE TABLE ") {
                guard let (name, _) = identifier(text.dropFirst("CREATE TABLE ".count)) else { return nil }
                if kept(name, table: name) { s.tables[name] = String(text) }
            } else if let rest = startsWith(text, "CREATE INDEX ") ? text.dropFirst("CREATE INDEX ".count)
                        : startsWith(text, "CREATE UNIQUE INDEX ") ? text.dropFirst("CREATE UNIQUE INDEX ".count) : nil {
                guard let (name, afterName) = identifier(rest), afterName.hasPrefix(" ON "),
                      let (table, _) = identifier(afterName.dropFirst(" ON ".count)) else { return nil }
                if kept(name, table: table) { s.indexes[name] = (table, String(text)) }
            } else if startsWith(text, "ALTER TABLE ") {
                // SQLite inserts an added column's definition before the table's constraints
                // (none in these tables: checked) or its closing parenthesis.
                guard let (name, afterName) = identifier(text.dropFirst("ALTER TABLE ".count)), afterName.hasPrefix(" ADD COLUMN "),
                      let table = s.tables[name], table.hasSuffix(")"), let open = table.firstIndex(of: "("),
                      !splitTopLevel(String(table[table.index(after: open)...].dropLast())).contains(where: isTableConstraint)
                else { return nil }
                s.tables[name] = table.dropLast() + ", " + afterName.dropFirst(" ADD COLUMN ".count) + ")"
            } else if !(startsWith(text, "CREATE TRIGGER ") || startsWith(text, "CREATE VIEW ")) {
                return nil
            }
        }
        return s
    }

    /// The column names a `CREATE TABLE` text declares, in order, read from the text (as
    /// `pragma_table_info` would report them, without a query); nil when the text has a
    /// comment, a quoting other than `"…"`, or anything else this reader does not know.
    /// Scans UTF-8 bytes once (Character-wise string searching cost more than the query).
    static func columnNames(ofTable sql: String) -> [String]? {
        let bytes = Array(sql.utf8)
        let prefix = Array("CREATE TABLE ".utf8)
        guard bytes.count > prefix.count, bytes.starts(with: prefix), bytes.last == UInt8(ascii: ")") else { return nil }
        var i = prefix.count
        guard identifierEnd(bytes, from: i) != nil else { return nil }
        i = identifierEnd(bytes, from: i)!.end
        while i < bytes.count, bytes[i] == UInt8(ascii: " ") { i += 1 }
        guard i < bytes.count, bytes[i] == UInt8(ascii: "(") else { return nil }
        // Each definition: from after "(" or a top-level comma to the next one (or the final ")").
        var names: [String] = []
        var start = i + 1, depth = 0
        var quote: UInt8?
        i += 1
        while i < bytes.count {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: "-") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "-") {
                return nil
            } else if b == UInt8(ascii: "/") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "*") {
                return nil
            } else if b == UInt8(ascii: "[") || b == UInt8(ascii: "`") {
                return nil
            } else if b == UInt8(ascii: "(") {
                depth += 1
            } else if b == UInt8(ascii: ")") && depth > 0 {
                depth -= 1
            } else if (b == UInt8(ascii: ",") || b == UInt8(ascii: ")")) && depth == 0 {
                if b == UInt8(ascii: ")") && i != bytes.count - 1 { return nil }  // text after the list
                guard let name = columnName(bytes, start, i) else { return nil }
                if let name = name { names.append(name) }
                start = i + 1
            }
            i += 1
        }
        return quote == nil && depth == 0 ? names : nil
    }

    /// The column a definition (`bytes[from..<to]`) declares: `.some(nil)` for a table
    /// constraint, nil when the definition does not read plainly.
    private static func columnName(_ bytes: [UInt8], _ from: Int, _ to: Int) -> String?? {
        var i = from
        while i < to, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        guard let (end, name, quoted) = identifierEnd(bytes, from: i), end <= to else { return nil }
        guard end == to || bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\n") || bytes[end] == UInt8(ascii: "\t") else { return nil }
        if !quoted, ["PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT"].contains(name.uppercased()) { return .some(nil) }
        return .some(name)
    }

    /// A `"…"` (with `""` inside) or plain identifier starting at `from`: where it ends,
    /// its name, and whether it was quoted.
    private static func identifierEnd(_ bytes: [UInt8], from: Int) -> (end: Int, name: String, quoted: Bool)? {
        guard from < bytes.count else { return nil }
        if bytes[from] == UInt8(ascii: "\"") {
            var name: [UInt8] = []
            var i = from + 1
            while i < bytes.count {
                if bytes[i] == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") { name.append(bytes[i]); i += 2; continue }
                    return (i + 1, String(decoding: name, as: UTF8.self), true)
                }
                name.append(bytes[i])
                i += 1
            }
            return nil
        }
        var i = from
        while i < bytes.count, bytes[i] == UInt8(ascii: "_") || (bytes[i] >= 0x30 && bytes[i] <= 0x39)
                || (bytes[i] | 0x20 >= UInt8(ascii: "a") && bytes[i] | 0x20 <= UInt8(ascii: "z")) { i += 1 }
        guard i > from else { return nil }
        let name = String(decoding: bytes[from..<i], as: UTF8.self)
        // `IF NOT EXISTS` and schema-qualified names are not read here.
        if name.uppercased() == "IF" || (i < bytes.count && bytes[i] == UInt8(ascii: ".")) { return nil }
        return (i, name, false)
    }

    /// `text` begins with the bytes of `prefix` (cheaper than `hasPrefix`, which compares characters).
    private static func startsWith(_ text: Substring, _ prefix: String) -> Bool { text.utf8.starts(with: prefix.utf8) }

    /// A table constraint, or a definition not read as a column (taken for one: the caller
    /// then lets SQLite read the schema). The same reading as `columnNames`.
    private static func isTableConstraint(_ definition: String) -> Bool {
        let bytes = Array(definition.utf8)
        guard case .some(.some) = columnName(bytes, 0, bytes.count) else { return true }
        return false
    }

    /// As `read` filters `sqlite_master`: not SQLite's own objects, nor those of Vellum's tables.
    private static func kept(_ name: String, table: String) -> Bool {
        let lower = name.lowercased(), lowerTable = table.lowercased()
        return !(lower.hasPrefix("sqlite") && lower.utf8.count > 6) && !lowerTable.hasPrefix("_vellum_")
    }

    /// A quoted (`"a""b"`) or plain identifier at the start of `text`, and what follows it;
    /// nil for `IF NOT EXISTS`, a schema-qualified name or another quoting (then SQLite
    /// would not keep the text as written, or this reader would not know the name).
    private static func identifier(_ text: Substring) -> (String, Substring)? {
        guard let (end, name, _) = identifierEnd(Array(text.utf8), from: 0) else { return nil }
        return (name, Substring(text.utf8[text.utf8.index(text.utf8.startIndex, offsetBy: end)...]))
    }
}
