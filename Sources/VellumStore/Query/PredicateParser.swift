import Foundation

extension QueryPredicate {
    /// Parses NSPredicate format syntax (see docs/predicates.md). `$variables`
    /// found in `variables` are replaced by their values; others stay variables.
    public init(format: String, variables: [String: Value] = [:]) throws(StoreError) {
        do { self = try QueryPredicate(parsing: format, variables: variables) } catch { throw .parse(error) }
    }

    init(parsing format: String, variables: [String: Value]) throws(ParseError) {
        var parser = try PredicateParser(format)
        let p = try parser.parsePredicateToEnd()
        self = variables.isEmpty ? p : p.substitutingKnown(variables)
    }

    /// Same as `init(format:variables:)`.
    public static func parse(_ format: String, variables: [String: Value] = [:]) throws(StoreError) -> QueryPredicate {
        try QueryPredicate(format: format, variables: variables)
    }
}

/// The words that cannot be bare key names (escape them as `#word`). Case-insensitive.
let predicateKeywords: Set<String> = [
    "AND", "OR", "NOT", "IN", "BETWEEN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES",
    "ANY", "SOME", "ALL", "NONE", "NIL", "NULL", "TRUE", "FALSE", "YES", "NO", "SELF",
    "TRUEPREDICATE", "FALSEPREDICATE", "CAST", "SUBQUERY",
]

/// Recursive-descent parser over `PredicateLexer` tokens.
struct PredicateParser {
    let lexer: PredicateLexer
    let tokens: [PredicateToken]
    var pos = 0
    var depth = 0
    static let maxDepth = 200

    init(_ text: String) throws(ParseError) {
        var lexer = PredicateLexer(text)
        tokens = try lexer.tokenize()
        self.lexer = lexer
    }

    var current: PredicateToken { tokens[pos] }

    func describe(_ t: PredicateToken) -> String {
        switch t.kind {
        case .end: return "end of input"
        case .word(let w): return "'\(w)'"
        case .escapedWord(let w): return "'#\(w)'"
        case .atWord(let w): return "'@\(w)'"
        case .string(let s): return "string \(PredicatePrinter.quote(s))"
        case .integer(let n): return "number \(n)"
        case .double(let d): return "number \(d)"
        case .date(let d): return "date @\(Value.iso8601(d))"
        case .variable(let v): return "'$\(v)'"
        case .symbol(let s): return "'\(s)'"
        }
    }

    func error(_ expected: String, at t: PredicateToken? = nil) -> ParseError {
        let t = t ?? current
        return ParseError(position: lexer.characterOffset(t.start), expected: expected, found: describe(t))
    }

    func isKeyword(_ t: PredicateToken, _ names: String...) -> Bool {
        if case .word(let w) = t.kind { return names.contains(w.uppercased()) }
        return false
    }
    func isSymbol(_ t: PredicateToken, _ symbols: String...) -> Bool {
        if case .symbol(let s) = t.kind { return symbols.contains(s) }
        return false
    }

    mutating func expectSymbol(_ s: String, _ what: String? = nil) throws(ParseError) {
        guard isSymbol(current, s) else { throw error(what ?? "'\(s)'") }
        pos += 1
    }

    mutating func parsePredicateToEnd() throws(ParseError) -> QueryPredicate {
        let p = try parseOr()
        guard current.kind == .end else { throw error("AND, OR or end of input") }
        return p
    }

    mutating func parseOr() throws(ParseError) -> QueryPredicate {
        var terms = [try parseAnd()]
        while isKeyword(current, "OR") || isSymbol(current, "||") {
            pos += 1
            terms.append(try parseAnd())
        }
        return Self.chain(terms[...], QueryPredicate.or)
    }

    mutating func parseAnd() throws(ParseError) -> QueryPredicate {
        var terms = [try parseNot()]
        while isKeyword(current, "AND") || isSymbol(current, "&&") {
            pos += 1
            terms.append(try parseNot())
        }
        return Self.chain(terms[...], QueryPredicate.and)
    }

    /// Chains longer than this become balanced trees, so that evaluating, printing and
    /// compiling a 10,000-term chain recurses about 14 levels deep instead of 10,000.
    static let longChain = 32

    /// Left-leaning (as written) when short, balanced when long: AND and OR give the same answer either way.
    static func chain(_ terms: ArraySlice<QueryPredicate>, _ join: (QueryPredicate, QueryPredicate) -> QueryPredicate) -> QueryPredicate {
        if terms.count <= longChain { return terms.dropFirst().reduce(terms[terms.startIndex], join) }
        let mid = terms.startIndex + terms.count / 2
        return join(chain(terms[..<mid], join), chain(terms[mid...], join))
    }

    mutating func nest() throws(ParseError) {
        depth += 1
        if depth > Self.maxDepth { throw error("less deeply nested input (at most \(Self.maxDepth) levels)") }
    }

    mutating func parseNot() throws(ParseError) -> QueryPredicate {
        if isKeyword(current, "NOT") || isSymbol(current, "!") {
            pos += 1
            try nest(); defer { depth -= 1 }
            return .not(try parseNot())
        }
        return try parsePrimary()
    }

    mutating func parsePrimary() throws(ParseError) -> QueryPredicate {
        if isSymbol(current, "(") {
            // `(` opens a predicate — or an arithmetic operand, as in `(a + b) * 2 > c`:
            // read it as a predicate first, then as a comparison if that fails or if
            // an operator follows the `)`. The error reported is the one that got further.
            let start = pos, startDepth = depth
            let firstError: ParseError
            do {
                pos += 1
                try nest()
                let p = try parseOr()
                try expectSymbol(")", "')' or AND/OR")
                depth -= 1
                if !continuesOperand(current) { return p }
                firstError = error("AND, OR or ')' after a parenthesized predicate")
            } catch { firstError = error }
            pos = start
            depth = startDepth
            do { return .comparison(try parseComparison()) } catch {
                throw error.position >= firstError.position ? error : firstError
            }
        }
        if isKeyword(current, "TRUEPREDICATE") { pos += 1; return .constant(true) }
        if isKeyword(current, "FALSEPREDICATE") { pos += 1; return .constant(false) }
        return .comparison(try parseComparison())
    }

    mutating func parseComparison() throws(ParseError) -> Comparison {
        var quantifier = Quantifier.direct
        if isKeyword(current, "ANY", "SOME") { quantifier = .any; pos += 1 }
        else if isKeyword(current, "ALL") { quantifier = .all; pos += 1 }
        else if isKeyword(current, "NONE") { quantifier = .none; pos += 1 }
        let lhs = try parseExpression(expected: quantifier == .direct ? "a predicate (key, value, NOT, '(' or TRUEPREDICATE)" : "a key path after \(quantifier.rawValue)")
        let opToken = current
        let op: ComparisonOperator
        switch opToken.kind {
        case .symbol("=="), .symbol("="): op = .equal
        case .symbol("!="), .symbol("<>"): op = .notEqual
        case .symbol("<"): op = .less
        case .symbol("<="), .symbol("=<"): op = .lessOrEqual
        case .symbol(">"): op = .greater
        case .symbol(">="), .symbol("=>"): op = .greaterOrEqual
        case .word(let w):
            switch w.uppercased() {
            case "BETWEEN": op = .between
            case "IN": op = .in
            case "BEGINSWITH": op = .beginsWith
            case "ENDSWITH": op = .endsWith
            case "CONTAINS": op = .contains
            case "LIKE": op = .like
            case "MATCHES": op = .matches
            default: throw error("a comparison operator (==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES)")
            }
        default: throw error("a comparison operator (==, !=, <, <=, >, >=, BETWEEN, IN, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES)")
        }
        pos += 1
        var options: StringOptions = []
        if isSymbol(current, "[") {
            pos += 1
            guard case .word(let w) = current.kind, !w.isEmpty,
                  w.lowercased().allSatisfy({ $0 == "c" || $0 == "d" }) else {
                throw error("string options c, d or cd")
            }
            for ch in w.lowercased() { options.insert(ch == "c" ? .caseInsensitive : .diacriticInsensitive) }
            pos += 1
            try expectSymbol("]", "']' closing the options")
        }
        let rhs = try parseExpression(expected: op == .between || op == .in ? "a list {…}, a variable or a value" : "a value, key or variable")
        if op == .between {
            if case .list(let items) = rhs, items.count != 2 {
                throw error("BETWEEN with a list of exactly two values {low, high}", at: tokens[pos - 1])
            }
        }
        // `'x' IN tags.name` (a value in a key path's values) is NSPredicate's other
        // spelling of `ANY tags.name == 'x'`; it is kept in that form.
        if op == .in, quantifier == .direct, case .keyPath = rhs {
            if case .list = lhs { throw error("a value before IN when a key path follows it", at: opToken) }
            return Comparison(rhs, .equal, lhs, options: options, quantifier: .any)
        }
        return Comparison(lhs, op, rhs, options: options, quantifier: quantifier)
    }

    /// True when `t` continues an operand into a comparison (`(a + b) * 2 > c`).
    func continuesOperand(_ t: PredicateToken) -> Bool {
        if isSymbol(t, "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "+", "-", "*", "/") { return true }
        return isKeyword(t, "BETWEEN", "IN", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES")
    }

    func arithmeticOperator(_ t: PredicateToken) -> ArithmeticOperator? {
        guard case .symbol(let s) = t.kind else { return nil }
        return ArithmeticOperator(rawValue: s)
    }

    /// An operand with arithmetic: precedence climbing, `*` `/` before `+` `-`,
    /// left-associative.
    mutating func parseExpression(expected: String) throws(ParseError) -> QueryExpression {
        try parseArithmetic(minimum: 1, expected: expected)
    }

    mutating func parseArithmetic(minimum: Int, expected: String) throws(ParseError) -> QueryExpression {
        var lhs = try parseSigned(expected: expected)
        // `+`/`-` terms after the first (only these can follow once one has been read).
        var sums: [(ArithmeticOperator, QueryExpression)] = []
        while let op = arithmeticOperator(current), op.precedence >= minimum {
            pos += 1
            let rhs = try parseArithmetic(minimum: op.precedence + 1, expected: "a number, key or '(' after '\(op.rawValue)'")
            if op == .add || op == .subtract { sums.append((op, rhs)) } else { lhs = .arithmetic(op, lhs, rhs) }
        }
        return Self.sum(lhs, sums[...])
    }

    /// `a ± b ± c …`: left-leaning when short; balanced when long (SQLite refuses
    /// expressions nested 1,000 deep), regrouping `a - b + c - d` as `(a - b) + (c - d)`
    /// and `a + b - c + d` as `(a + b) - (c - d)`, which is the same sum.
    static func sum(_ first: QueryExpression, _ rest: ArraySlice<(ArithmeticOperator, QueryExpression)>, flipped: Bool = false) -> QueryExpression {
        func effective(_ op: ArithmeticOperator) -> ArithmeticOperator {
            flipped ? (op == .add ? .subtract : .add) : op
        }
        if rest.count < longChain {
            return rest.reduce(first) { .arithmetic(effective($1.0), $0, $1.1) }
        }
        let mid = rest.startIndex + rest.count / 2
        let join = effective(rest[mid].0)
        let left = sum(first, rest[..<mid], flipped: flipped)
        let right = sum(rest[mid].1, rest[(mid + 1)...], flipped: flipped != (join == .subtract))
        return .arithmetic(join, left, right)
    }

    /// `-x` (as `0 - x`), `+x`, `( arithmetic )`, or an operand.
    mutating func parseSigned(expected: String) throws(ParseError) -> QueryExpression {
        if isSymbol(current, "-", "+") {
            let negative = isSymbol(current, "-")
            pos += 1
            try nest(); defer { depth -= 1 }
            let operand = try parseSigned(expected: "a number, key or '(' after the sign")
            return negative ? .arithmetic(.subtract, .constant(.integer(0)), operand) : operand
        }
        if isSymbol(current, "(") {
            pos += 1
            try nest(); defer { depth -= 1 }
            let e = try parseArithmetic(minimum: 1, expected: "a number, key or '('")
            try expectSymbol(")", "')' or an arithmetic operator")
            return e
        }
        return try parseOperand(expected: expected)
    }

    mutating func parseOperand(expected: String) throws(ParseError) -> QueryExpression {
        let t = current
        switch t.kind {
        case .string(let s): pos += 1; return .constant(.string(s))
        case .integer(let n): pos += 1; return .constant(.integer(n))
        case .double(let d): pos += 1; return .constant(.double(d))
        case .date(let d): pos += 1; return .constant(.date(d))
        case .variable(let v):
            pos += 1
            // `$v.name`: a key path of a SUBQUERY's variable.
            return isSymbol(current, ".") ? try parseKeyPath(first: "$" + v) : .variable(v)
        case .symbol("{"):
            pos += 1
            try nest(); defer { depth -= 1 }
            var items: [QueryExpression] = []
            if isSymbol(current, "}") { pos += 1; return .list([]) }
            while true {
                items.append(try parseExpression(expected: "a value in the list"))
                if isSymbol(current, ",") { pos += 1; continue }
                try expectSymbol("}", "',' or '}'")
                return .list(items)
            }
        case .escapedWord(let w):
            pos += 1
            return try parseKeyPath(first: w)
        case .word(let w):
            switch w.uppercased() {
            case "NIL", "NULL": pos += 1; return .constant(.null)
            case "TRUE", "YES": pos += 1; return .constant(.bool(true))
            case "FALSE", "NO": pos += 1; return .constant(.bool(false))
            case "SELF": pos += 1; return .evaluatedObject
            case "CAST": return try parseCast()
            case "SUBQUERY": return try parseSubquery()
            default:
                guard !predicateKeywords.contains(w.uppercased()) else { throw error(expected) }
                pos += 1
                return try parseKeyPath(first: w)
            }
        default:
            throw error(expected)
        }
    }

    mutating func parseKeyPath(first: String) throws(ParseError) -> QueryExpression {
        var path = [first]
        while isSymbol(current, ".") {
            pos += 1
            switch current.kind {
            case .word(let w) where !predicateKeywords.contains(w.uppercased()):
                pos += 1; path.append(w)
            case .escapedWord(let w):
                pos += 1; path.append(w)
            case .atWord(let a):
                guard let fn = AggregateFunction(rawValue: a.lowercased()) else {
                    throw error("an aggregate @count, @sum, @avg, @min or @max")
                }
                pos += 1
                var attribute: [String] = []
                while isSymbol(current, ".") {
                    pos += 1
                    switch current.kind {
                    case .word(let w) where !predicateKeywords.contains(w.uppercased()): pos += 1; attribute.append(w)
                    case .escapedWord(let w): pos += 1; attribute.append(w)
                    default: throw error("a key name after '.'")
                    }
                }
                if fn == .count && !attribute.isEmpty {
                    throw error("nothing after @count", at: tokens[pos - 1])
                }
                if fn != .count && attribute.isEmpty {
                    throw error("'.attribute' after @\(fn.rawValue)")
                }
                return .aggregate(fn, collection: path, attribute: attribute)
            default:
                throw error("a key name or aggregate after '.'")
            }
        }
        return .keyPath(path)
    }

    /// `SUBQUERY(tags, $t, $t.weight > 2 AND $t.name BEGINSWITH 'a').@count`.
    mutating func parseSubquery() throws(ParseError) -> QueryExpression {
        pos += 1
        try expectSymbol("(", "'(' after SUBQUERY")
        try nest(); defer { depth -= 1 }
        let collectionToken = current
        guard case .keyPath(let collection) = try parseExpression(expected: "the to-many key path SUBQUERY iterates") else {
            throw error("the to-many key path SUBQUERY iterates", at: collectionToken)
        }
        try expectSymbol(",", "',' after SUBQUERY's key path")
        guard case .variable(let variable) = current.kind else { throw error("a variable ($x) naming each related object") }
        pos += 1
        try expectSymbol(",", "',' after SUBQUERY's variable")
        let predicate = try parseOr()
        try expectSymbol(")", "')' closing SUBQUERY")
        let dot = current
        guard isSymbol(current, ".") else { throw error(".@count after SUBQUERY(…)") }
        pos += 1
        guard case .atWord(let a) = current.kind, a.lowercased() == "count" else { throw error(".@count after SUBQUERY(…) (the only use supported)", at: dot) }
        pos += 1
        return .subqueryCount(collection: collection, variable: variable, predicate: predicate)
    }

    /// `CAST('1.5', 'NSDecimalNumber')`, `CAST(1714567890, 'NSDate')` (Unix seconds),
    /// `CAST('…', 'NSUUID')`, `CAST('…', 'NSURL')`, `CAST('base64', 'NSData')`, `CAST('inf', 'double')`.
    mutating func parseCast() throws(ParseError) -> QueryExpression {
        pos += 1
        try expectSymbol("(", "'(' after CAST")
        let valueToken = current
        let value: Value
        switch valueToken.kind {
        case .string(let s): value = .string(s)
        case .integer(let n): value = .integer(n)
        case .double(let d): value = .double(d)
        default: throw error("a string or number to cast")
        }
        pos += 1
        try expectSymbol(",", "',' and a type name")
        guard case .string(let type) = current.kind else { throw error("a quoted type name ('NSDecimalNumber', 'NSDate', 'NSUUID', 'NSURL', 'NSData', 'double')") }
        let typeToken = current
        pos += 1
        try expectSymbol(")", "')' closing CAST")
        func bad() -> ParseError { error("a value convertible to \(type)", at: valueToken) }
        switch (type, value) {
        case ("NSDecimalNumber", .string(let s)):
            guard let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")), "\(d)" == s || Decimal(string: "\(d)") == d else { throw bad() }
            return .constant(.decimal(d))
        case ("NSDecimalNumber", .integer(let n)): return .constant(.decimal(Decimal(n)))
        case ("NSDate", .integer(let n)): return .constant(.date(Date(timeIntervalSince1970: Double(n))))
        case ("NSDate", .double(let d)): return .constant(.date(Date(timeIntervalSince1970: d)))
        case ("NSDate", .string(let s)):
            guard let d = Value.parseISO8601(s) ?? Double(s).map({ Date(timeIntervalSince1970: $0) }) else { throw bad() }
            return .constant(.date(d))
        case ("NSUUID", .string(let s)):
            guard let u = UUID(uuidString: s) else { throw bad() }
            return .constant(.uuid(u))
        case ("NSURL", .string(let s)):
            guard let u = URL(string: s) else { throw bad() }
            return .constant(.uri(u))
        case ("NSData", .string(let s)):
            guard let d = Data(base64Encoded: s) else { throw bad() }
            return .constant(.data(d))
        case ("double", .string(let s)):
            guard let d = Double(s) else { throw bad() }
            return .constant(.double(d))
        case ("double", .integer(let n)): return .constant(.double(Double(n)))
        case ("double", .double(let d)): return .constant(.double(d))
        default:
            throw error("a supported CAST type ('NSDecimalNumber', 'NSDate', 'NSUUID', 'NSURL', 'NSData', 'double')", at: typeToken)
        }
    }
}
