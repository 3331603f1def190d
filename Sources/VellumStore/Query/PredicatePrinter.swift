import Foundation

/// Prints predicates in format syntax that parses back to an equal AST.
enum PredicatePrinter {
    static func predicate(_ p: QueryPredicate) -> String { print(p, minimum: 0) }

    /// Precedence: OR 1, AND 2, NOT and comparisons 3. Operators are left-associative.
    private static func print(_ p: QueryPredicate, minimum: Int) -> String {
        let text: String
        let level: Int
        switch p {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let c): return comparison(c)
        case .not(let inner): return "NOT " + print(inner, minimum: 3)
        case .and(let a, let b):
            text = print(a, minimum: 2) + " AND " + print(b, minimum: 3); level = 2
        case .or(let a, let b):
            text = print(a, minimum: 1) + " OR " + print(b, minimum: 2); level = 1
        }
        return level < minimum ? "(" + text + ")" : text
    }

    static func comparison(_ c: Comparison) -> String {
        var s = ""
        if c.quantifier != .direct { s += c.quantifier.rawValue + " " }
        s += expression(c.lhs) + " " + c.op.rawValue
        if !c.options.isEmpty {
            s += "[" + (c.options.contains(.caseInsensitive) ? "c" : "") + (c.options.contains(.diacriticInsensitive) ? "d" : "") + "]"
        }
        return s + " " + expression(c.rhs)
    }

    static func keyName(_ k: String) -> String {
        let plain = k.unicodeScalars.first.map { $0 == "_" || $0.properties.isAlphabetic } == true
            && k.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || $0.properties.numericType != nil }
        if !plain {
            // `$t` (a subquery's variable) and `@count` print as they are; any other
            // name (another program's `Unit Price`) as `#"Unit Price"`.
            return k.hasPrefix("$") || k.hasPrefix("@") ? k : "#" + QuotedString.quoted(k, .predicate)
        }
        return predicateKeywords.contains(k.uppercased()) ? "#" + k : k
    }

    static func expression(_ e: QueryExpression) -> String {
        switch e {
        case .keyPath(let path): return path.map(keyName).joined(separator: ".")
        case .constant(let v): return constant(v)
        case .variable(let v): return "$" + v
        case .evaluatedObject: return "SELF"
        case .aggregate(let fn, let collection, let attribute):
            return (collection.map(keyName) + ["@" + fn.rawValue] + attribute.map(keyName)).joined(separator: ".")
        case .list(let items): return "{" + items.map(expression).joined(separator: ", ") + "}"
        case .arithmetic(let op, let a, let b):
            return operand(a, minimum: op.precedence) + " " + op.rawValue + " " + operand(b, minimum: op.precedence + 1)
        case .subqueryCount(let collection, let variable, let p):
            return "SUBQUERY(" + collection.map(keyName).joined(separator: ".") + ", $" + variable + ", " + predicate(p) + ").@count"
        }
    }

    /// An arithmetic operand, parenthesized when it binds more loosely than its place needs.
    private static func operand(_ e: QueryExpression, minimum: Int) -> String {
        if case .arithmetic(let op, _, _) = e, op.precedence < minimum { return "(" + expression(e) + ")" }
        return expression(e)
    }

    static func constant(_ v: Value) -> String {
        switch v {
        case .null: return "nil"
        case .integer(let i): return String(i)
        case .double(let d):
            guard d.isFinite else { return "CAST(\(quote(String(d))), 'double')" }
            let s = "\(d)"
            return s.contains(".") || s.contains("e") ? s : s + ".0"
        case .decimal(let d): return "CAST(\(quote("\(d)")), 'NSDecimalNumber')"
        case .string(let s): return quote(s)
        case .bool(let b): return b ? "YES" : "NO"
        case .date(let d):
            let t = d.timeIntervalSince1970
            if t == t.rounded(), abs(t) < 1e11, t >= -62135596800 {
                let text = Value.iso8601(d)
                if Value.parseISO8601(text) == d { return "@" + text }
            }
            return "CAST(\(t), 'NSDate')"
        case .data(let d): return "CAST(\(quote(d.base64EncodedString())), 'NSData')"
        case .uuid(let u): return "CAST(\(quote(u.uuidString)), 'NSUUID')"
        case .uri(let u): return "CAST(\(quote(u.absoluteString)), 'NSURL')"
        }
    }

    /// A double-quoted string literal with escapes.
    static func quote(_ s: String) -> String { QuotedString.quoted(s, .predicate) }
}
