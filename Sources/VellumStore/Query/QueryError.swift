import Foundation

/// A predicate or sort descriptor that does not fit the model, or cannot be
/// evaluated or compiled (unknown key, type mismatch, missing variable).
public struct QueryError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
