import Foundation

/// Why a regular expression cannot be used: an invalid or unsupported pattern
/// (`offset` is the Unicode scalar offset in the pattern), or a match that would
/// cost more than the engine allows. Never a silent "no match".
public struct RegexError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// Not a valid ICU regular expression.
        case invalid
        /// Valid ICU, but a construct this linear-time engine does not run (backreferences, lookaround).
        case unsupported
        /// The compiled pattern is larger than the engine allows (huge `{n,m}` counts).
        case tooLarge
        /// Matching this value would take more steps than the engine allows.
        case tooCostly
    }
    public var kind: Kind
    public var reason: String
    public var offset: Int?

    public init(_ kind: Kind, _ reason: String, at offset: Int? = nil) {
        self.kind = kind
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch kind {
        case .invalid: return "invalid regular expression: \(reason)"
        case .unsupported: return "unsupported regular expression: \(reason)"
        case .tooLarge: return "regular expression too large: \(reason)"
        case .tooCostly: return "regular expression too costly: \(reason)"
        }
    }
}
