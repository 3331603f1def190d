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
        guard old.hasSuffix(")"), new.hasSuffix(")") else { return nil }
        let head = String(old.dropLast())
        if new == old { return [] }
        guard new.hasPrefix(head) else { return nil }
        let rest = new.dropFirst(head.count).dropLast()
        guard rest.hasPrefix(",") else { return nil }
        return splitTopLevel(String(rest.dropFirst()))
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
            if text.hasPrefix("CREATE TABLE ") {
                guard let (name, _) = identifier(text.dropFirst("CREATE TABLE ".count)) else { return nil }
                if kept(name, table: name) { s.tables[name] = String(text) }
            } else if let rest = text.hasPrefix("CREATE INDEX ") ? text.dropFirst("CREATE INDEX ".count)
                        : text.hasPrefix("CREATE UNIQUE INDEX ") ? text.dropFirst("CREATE UNIQUE INDEX ".count) : nil {
                guard let (name, afterName) = identifier(rest), afterName.hasPrefix(" ON "),
                      let (table, _) = identifier(afterName.dropFirst(" ON ".count)) else { return nil }
                if kept(name, table: table) { s.indexes[name] = (table, String(text)) }
            } else if text.hasPrefix("ALTER TABLE ") {
                // SQLite inserts an added column's definition before the table's constraints
                // (none in these tables: checked) or its closing parenthesis.
                guard let (name, afterName) = identifier(text.dropFirst("ALTER TABLE ".count)), afterName.hasPrefix(" ADD COLUMN "),
                      let table = s.tables[name], table.hasSuffix(")"), let open = table.firstIndex(of: "("),
                      !splitTopLevel(String(table[table.index(after: open)...].dropLast())).contains(where: isTableConstraint)
                else { return nil }
                s.tables[name] = table.dropLast() + ", " + afterName.dropFirst(" ADD COLUMN ".count) + ")"
            } else if !(text.hasPrefix("CREATE TRIGGER ") || text.hasPrefix("CREATE VIEW ")) {
                return nil
            }
        }
        return s
    }

    /// The column names a `CREATE TABLE` text declares, in order, read from the text (as
    /// `pragma_table_info` would report them, without a query); nil when the text has a
    /// comment or a quoting this reader does not know.
    static func columnNames(ofTable sql: String) -> [String]? {
        guard !sql.contains("--"), !sql.contains("/*"), sql.hasPrefix("CREATE TABLE "), sql.hasSuffix(")"),
              let (_, afterName) = identifier(Substring(sql).dropFirst("CREATE TABLE ".count)) else { return nil }
        var body = afterName
        while body.first == " " { body.removeFirst() }
        guard body.first == "(" else { return nil }
        var names: [String] = []
        for definition in splitTopLevel(String(body.dropFirst().dropLast())) where !isTableConstraint(definition) {
            guard let (name, rest) = identifier(Substring(definition)), rest.isEmpty || rest.first == " " else { return nil }
            names.append(name)
        }
        return names
    }

    private static func isTableConstraint(_ definition: String) -> Bool {
        let upper = definition.uppercased()
        return ["PRIMARY ", "PRIMARY(", "UNIQUE", "CHECK", "FOREIGN ", "CONSTRAINT "].contains { upper.hasPrefix($0) }
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
        if text.hasPrefix("IF ") || text.hasPrefix("if ") { return nil }
        var name = ""
        var rest: Substring
        if text.first == "\"" {
            var i = text.index(after: text.startIndex)
            while true {
                guard let close = text[i...].firstIndex(of: "\"") else { return nil }
                name += text[i..<close]
                let next = text.index(after: close)
                if next < text.endIndex, text[next] == "\"" { name += "\""; i = text.index(after: next); continue }
                rest = text[next...]
                break
            }
        } else {
            let end = text.firstIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_")) } ?? text.endIndex
            guard end > text.startIndex else { return nil }
            name = String(text[..<end])
            rest = text[end...]
        }
        if rest.first == "." { return nil }
        return (name, rest)
    }
}
