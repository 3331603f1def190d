/// A tiny hand-written command-line parser.
///
/// Supports positional arguments, boolean flags (`--json`), options with a value
/// (`--model PATH` or `--model=PATH`) and `--` to end option parsing. Anything
/// starting with `-` that the spec does not declare is an error naming it.
struct ArgumentSpec: Sendable {
    /// Flag names without the leading dashes, e.g. `"json"`.
    var flags: Set<String>
    /// Option names (taking a value) without the leading dashes, e.g. `"model"`.
    var options: Set<String>

    init(flags: Set<String> = [], options: Set<String> = []) {
        self.flags = flags
        self.options = options
    }
}

/// The result of parsing: positionals in order, flags present, last value per option.
struct ParsedArguments: Sendable, Equatable {
    var positionals: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]

    func has(_ flag: String) -> Bool { flags.contains(flag) }
    func option(_ name: String) -> String? { options[name] }
}

enum ArgumentError: Error, Equatable, CustomStringConvertible {
    case unknownOption(String)
    case missingValue(option: String)
    case unexpectedValue(flag: String)
    case missingArgument(String)
    case tooManyArguments([String])

    var description: String {
        switch self {
        case .unknownOption(let o): return "unknown option '\(o)'"
        case .missingValue(let o): return "option '--\(o)' needs a value"
        case .unexpectedValue(let f): return "flag '--\(f)' does not take a value"
        case .missingArgument(let what): return "missing \(what)"
        case .tooManyArguments(let extra): return "unexpected argument\(extra.count == 1 ? "" : "s"): \(extra.joined(separator: " "))"
        }
    }
}

enum ArgumentParser {
    static func parse(_ arguments: [String], spec: ArgumentSpec) throws(ArgumentError) -> ParsedArguments {
        var result = ParsedArguments()
        var i = 0
        var optionsEnded = false
        while i < arguments.count {
            let arg = arguments[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            guard arg.hasPrefix("--") else {
                // Only `-h` is known as a short form.
                if arg == "-h", spec.flags.contains("help") { result.flags.insert("help"); continue }
                throw .unknownOption(arg)
            }
            let body = arg.dropFirst(2)
            let name: String
            let inlineValue: String?
            if let eq = body.firstIndex(of: "=") {
                name = String(body[..<eq])
                inlineValue = String(body[body.index(after: eq)...])
            } else {
                name = String(body)
                inlineValue = nil
            }
            if spec.flags.contains(name) {
                if inlineValue != nil { throw .unexpectedValue(flag: name) }
                result.flags.insert(name)
            } else if spec.options.contains(name) {
                if let inlineValue {
                    result.options[name] = inlineValue
                } else {
                    guard i < arguments.count else { throw .missingValue(option: name) }
                    result.options[name] = arguments[i]
                    i += 1
                }
            } else {
                throw .unknownOption(inlineValue == nil ? arg : "--" + name)
            }
        }
        return result
    }
}

extension ParsedArguments {
    /// Exactly `names.count` positionals; throws naming the first missing one or the extras.
    func requirePositionals(_ names: [String]) throws(ArgumentError) -> [String] {
        if positionals.count < names.count { throw .missingArgument(names[positionals.count]) }
        if positionals.count > names.count { throw .tooManyArguments(Array(positionals[names.count...])) }
        return positionals
    }
}
