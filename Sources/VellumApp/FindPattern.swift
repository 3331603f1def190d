import Foundation
import VellumStore

/// What `f` looks for: text anywhere in a value, case- and diacritic-insensitively,
/// or a regular expression (ICU syntax, as MATCHES takes it) matching anywhere in it,
/// case-insensitively. The search itself runs in SQL (`predicate`); `range(in:)`
/// only picks and marks the cell of the row it found.
public struct FindPattern: Sendable, Equatable {
    public var text: String
    public var isRegex: Bool

    public init(_ text: String, regex: Bool = false) {
        self.text = text
        isRegex = regex
    }

    /// The regular expression for a whole value: the pattern anywhere in it, across lines.
    var anywhere: String { "(?s).*(?:" + text + ").*" }

    /// nil when the pattern can be run; else why not ("unclosed group at 3").
    public var problem: String? {
        guard isRegex else { return nil }
        do { _ = try LinearRegex(anywhere); return nil } catch { return error.description }
    }

    /// Any of `attributes` holds a match.
    public func predicate(attributes: [String]) -> VellumStore.QueryPredicate {
        let parts = attributes.map { key -> VellumStore.QueryPredicate in
            isRegex
                ? .comparison(Comparison(.key(key), .matches, .constant(.string(anywhere)), options: [.caseInsensitive]))
                : .comparison(Comparison(.key(key), .contains, .constant(.string(text)), options: [.caseInsensitive, .diacriticInsensitive]))
        }
        return parts.dropFirst().reduce(parts.first ?? .constant(false)) { .or($0, $1) }
    }

    /// Where in `value` the match is, in characters: the text found, or the whole value
    /// for a regular expression (which says whether, not where). nil: no match.
    public func range(in value: String) -> Range<Int>? {
        if isRegex {
            guard (try? LinearRegex.cached("(?i)" + anywhere).matchesWhole(value)) == true else { return nil }
            return 0..<value.count
        }
        guard let found = value.range(of: text, options: [.caseInsensitive, .diacriticInsensitive]) else { return nil }
        let start = value.distance(from: value.startIndex, to: found.lowerBound)
        return start..<(start + value[found].count)
    }
}

/// The cell `f` found, marked while the cursor stays on it.
public struct FoundCell: Sendable, Equatable {
    public var id: ObjectID
    public var column: String
    public var pattern: FindPattern
}
