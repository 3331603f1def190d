import Foundation

extension QueryPredicate {
    /// `NSPredicate(format:)` with arguments: `%K` takes a key path (a string, dotted
    /// through relationships), `%@` any value, `%d` (`%i`, `%ld`) an integer, `%f`
    /// (`%lf`) a number; `%%` is a percent sign. Values are bound, never spliced into
    /// the text, so a quote in an argument is just a character of the value.
    ///
    ///     try QueryPredicate(format: "%K == %@ AND price < %f", "name", "O'Brien", 5.0)
    public init(format: String, _ arguments: Value...) throws(StoreError) {
        try self.init(format: format, argumentArray: arguments)
    }

    /// `init(format:_:)` with the arguments in an array.
    public init(format: String, argumentArray arguments: [Value]) throws(StoreError) {
        do { self = try QueryPredicate(parsing: format, arguments: arguments) } catch { throw .parse(error) }
    }

    private init(parsing format: String, arguments: [Value]) throws(ParseError) {
        let bound = try PredicateFormatArguments(format: format, arguments: arguments)
        do { self = try QueryPredicate(parsing: bound.text, variables: bound.variables) } catch { throw bound.mapped(error) }
    }
}

/// A format with its `%` placeholders replaced: key paths as escaped key names,
/// values as `$variables` bound to the arguments. Remembers where each character
/// came from, so errors point into the text the caller wrote.
struct PredicateFormatArguments {
    private(set) var text = ""
    private(set) var variables: [String: Value] = [:]
    /// For each Character of `text`, its offset in the format.
    private var origin: [Int] = []
    private let formatLength: Int

    init(format: String, arguments: [Value]) throws(ParseError) {
        let chars = Array(format)
        formatLength = chars.count
        var used = 0, i = 0
        var quote: Character?
        while i < chars.count {
            let c = chars[i]
            if let q = quote {
                append(String(c), from: i)
                if c == "\\", i + 1 < chars.count { append(String(chars[i + 1]), from: i + 1); i += 2; continue }
                if c == q { quote = nil }
                i += 1
                continue
            }
            if c == "\"" || c == "'" { quote = c }
            guard c == "%" else { append(String(c), from: i); i += 1; continue }
            let (spec, length) = Self.specifier(chars, at: i)
            if spec == "%" { append("%", from: i); i += length; continue }
            guard let spec, ["K", "@", "d", "f"].contains(spec) else {
                let found = String(chars[i..<min(chars.count, i + max(length, 2))])
                throw ParseError(position: i, expected: "a format placeholder (%K, %@, %d, %f or %%)", found: "'\(found)'")
            }
            guard used < arguments.count else {
                throw ParseError(position: i, expected: "an argument for %\(spec) (\(arguments.count) given)", found: "none")
            }
            let argument = arguments[used]
            used += 1
            append(try Self.replacement(spec, argument, number: used, at: i, variables: &variables), from: i)
            i += length
        }
        guard used == arguments.count else {
            throw ParseError(position: chars.count, expected: "\(used) format argument\(used == 1 ? "" : "s") for the placeholders",
                             found: "\(arguments.count)")
        }
    }

    private mutating func append(_ piece: String, from offset: Int) {
        text += piece
        origin.append(contentsOf: repeatElement(offset, count: piece.count))
    }

    /// The same error at the caller's position.
    func mapped(_ error: ParseError) -> ParseError {
        var e = error
        e.position = error.position < origin.count ? origin[error.position] : formatLength
        return e
    }

    /// The placeholder at `i` ("K", "@", "d", "f", "%"; nil when unknown) and its length.
    private static func specifier(_ chars: [Character], at i: Int) -> (String?, Int) {
        var j = i + 1
        while j < chars.count, chars[j] == "l" { j += 1 }
        guard j < chars.count else { return (nil, j - i) }
        let lengthModified = j > i + 1
        switch chars[j] {
        case "K" where !lengthModified: return ("K", j - i + 1)
        case "@" where !lengthModified: return ("@", j - i + 1)
        case "%" where !lengthModified: return ("%", 2)
        case "d", "i": return ("d", j - i + 1)
        case "f": return ("f", j - i + 1)
        default: return (nil, j - i + 1)
        }
    }

    private static func replacement(_ spec: String, _ argument: Value, number: Int, at position: Int,
                                    variables: inout [String: Value]) throws(ParseError) -> String {
        func wrong(_ wanted: String) -> ParseError {
            ParseError(position: position, expected: "\(wanted) for %\(spec) (argument \(number))",
                       found: "\(argument.kindName) \(argument)")
        }
        switch spec {
        case "K":
            guard case .string(let path) = argument, !path.isEmpty else { throw wrong("a key path string") }
            let names = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !names.contains(where: \.isEmpty) else { throw wrong("a key path without empty names") }
            return names.map(keyName).joined(separator: ".")
        case "d":
            guard case .integer = argument else { throw wrong("an integer") }
        case "f":
            switch argument {
            case .double, .integer, .decimal: break
            default: throw wrong("a number")
            }
        default: break
        }
        let name = "vellumFormatArgument\(number)"
        variables[name] = argument
        return " $\(name) "
    }

    /// A key name of a `%K` path: aggregates (`@count`) as they are, any other name
    /// that is not a plain identifier escaped (`#"Unit Price"`), never read as syntax.
    private static func keyName(_ name: String) -> String {
        if name.hasPrefix("@"), AggregateFunction(rawValue: String(name.dropFirst())) != nil { return name }
        if name.hasPrefix("$") || name.hasPrefix("@") { return "#" + QuotedString.quoted(name, .predicate) }
        return PredicatePrinter.keyName(name)
    }
}
