import Foundation

/// A `CHECK` constraint of another program's table, read from its `CREATE TABLE`
/// text (SQLite keeps no other record of them), to word a violation in full:
/// SQLite says only the constraint's name or its expression.
public struct ForeignCheckConstraint: Sendable, Hashable {
    /// `CONSTRAINT name`, when it has one.
    public var name: String?
    /// The expression between the parentheses of `CHECK (…)`, as written.
    public var expression: String
    /// The column it is declared on (a column constraint), nil for a table constraint.
    public var column: String?

    /// The CHECK constraints of a `CREATE TABLE` statement, in order.
    public static func parse(_ createSQL: String) -> [ForeignCheckConstraint] {
        let tokens = SQLTokens(createSQL)
        guard let open = tokens.items.firstIndex(where: { $0.text == "(" }) else { return [] }
        var result: [ForeignCheckConstraint] = []
        var depth = 0, definitionStart = open + 1, i = open + 1
        var pendingName: String?
        while i < tokens.items.count {
            let t = tokens.items[i]
            if t.text == "(" { depth += 1 } else if t.text == ")" {
                if depth == 0 { break }
                depth -= 1
            } else if depth == 0, t.text == "," {
                definitionStart = i + 1
                pendingName = nil
            } else if depth == 0, t.isWord("CONSTRAINT"), i + 1 < tokens.items.count {
                pendingName = tokens.items[i + 1].identifier
                i += 1
            } else if depth == 0, t.isWord("CHECK"), i + 1 < tokens.items.count, tokens.items[i + 1].text == "(" {
                guard let close = tokens.matchingParenthesis(i + 1) else { break }
                let expression = tokens.text(from: i + 2, to: close)
                let first = tokens.items[definitionStart]
                let isColumnConstraint = !["CONSTRAINT", "CHECK", "PRIMARY", "UNIQUE", "FOREIGN"].contains { first.isWord($0) }
                result.append(ForeignCheckConstraint(name: pendingName, expression: expression, column: isColumnConstraint ? first.identifier : nil))
                pendingName = nil
                i = close
            }
            i += 1
        }
        return result
    }

    /// The columns of `table` the constraint is about: its own column and those its expression names.
    public func columns(in table: ForeignSchema.Table) -> [String] {
        let names = Set(SQLTokens(expression).items.compactMap { $0.identifier?.lowercased() })
        return table.columns.map(\.name).filter { names.contains($0.lowercased()) || $0.caseInsensitiveCompare(column ?? "") == .orderedSame }
    }

    /// SQLite's "CHECK constraint failed: <name or expression>" completed with the
    /// table, the columns and the constraint's text; nil when no constraint of `table` fits.
    public static func describe(failure message: String, table: ForeignSchema.Table) -> String? {
        guard let range = message.range(of: "CHECK constraint failed: ") else { return nil }
        let said = squeezed(String(message[range.upperBound...]))
        let constraints = parse(table.sql)
        guard let c = constraints.first(where: { $0.name.map(squeezed) == said }) ?? constraints.first(where: { squeezed($0.expression) == said })
                ?? (constraints.count == 1 ? constraints.first : nil) else { return nil }
        let columns = c.columns(in: table)
        let what = columns.isEmpty ? "" : (columns.count == 1 ? ", column " : ", columns ") + columns.joined(separator: ", ")
        return "CHECK constraint failed: table \(table.name)\(what): CHECK (\(c.expression))" + (c.name.map { " (constraint \($0))" } ?? "")
    }

    private static func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace }.lowercased() }
}
