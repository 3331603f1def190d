import Foundation

/// A regular expression in the ICU syntax of NSPredicate's MATCHES, run by a Pike VM:
/// time grows with text length × pattern size, never exponentially, so
/// `(x+x+)+$` costs what `x+$` costs, and no value is too long to answer for.
/// What it cannot run (backreferences, lookaround, possessive and atomic groups)
/// is refused when compiled, and a match that would exceed `stepBudget` throws:
/// an answer is never a silent "no match".
package struct LinearRegex: Sendable {
    let program: RegexProgram
    /// DFAs built by earlier matches, reused (SQL matches once per row).
    private let dfas: DFAPool?
    /// Thread steps one match may take (about a second of work), so no single
    /// value can stall a query for long.
    package static let stepBudget = 200_000_000

    package init(_ pattern: String) throws(RegexError) {
        var parser = RegexParser(pattern)
        program = try RegexProgram(parser.parse(flags: .init()))
        dfas = RegexDFA(program).map(DFAPool.init)
    }

    /// The compiled pattern, shared across threads and calls (SQL calls once per row).
    package static func cached(_ pattern: String) throws(RegexError) -> LinearRegex {
        try cache.regex(pattern).get()
    }

    private static let cache = LinearRegexCache()

    /// True when the whole of `text` matches.
    package func matchesWhole(_ text: String, budget: Int = stepBudget) throws(RegexError) -> Bool {
        if let dfas {
            var dfa = dfas.take()
            let answer = try dfa.matchesWhole(text, budget: budget)
            if answer != nil { dfas.give(dfa) }   // a DFA that grew too large is dropped
            if let answer { return answer }
        }
        var vm = PikeVM(program: program, text: text)
        return try vm.run(budget: budget)
    }
}

/// Idle DFAs of one pattern: each match takes one (or a fresh one), so threads never share a DFA.
final class DFAPool: Sendable {
    private let fresh: RegexDFA
    private let idle = Locked<[RegexDFA]>([])

    init(_ fresh: RegexDFA) { self.fresh = fresh }

    func take() -> RegexDFA { idle.withLock { $0.popLast() } ?? fresh }

    func give(_ dfa: RegexDFA) { idle.withLock { if $0.count < 8 { $0.append(dfa) } } }
}

/// Compiled patterns (and their errors) by pattern text.
final class LinearRegexCache: Sendable {
    private let cache = Locked<[String: Result<LinearRegex, RegexError>]>([:])

    func regex(_ pattern: String) -> Result<LinearRegex, RegexError> {
        cache.withLock { cache in
            if let r = cache[pattern] { return r }
            let r = Result { () throws(RegexError) -> LinearRegex in try LinearRegex(pattern) }
            if cache.count > 256 { cache.removeAll() }
            cache[pattern] = r
            return r
        }
    }
}
