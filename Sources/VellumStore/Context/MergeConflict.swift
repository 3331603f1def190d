import Foundation

/// A conflict found while saving: the object changed in the store since this
/// context read it (optimistic locking), or a uniqueness constraint was hit.
public struct MergeConflict: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case version
        case uniqueness(attributes: [String], existing: ObjectID)
    }
    public var kind: Kind
    public var objectID: ObjectID
    /// The version this context read.
    public var oldVersion: Int64
    /// The version in the store now; 0 means the row was deleted.
    public var newVersion: Int64
    /// The object's values in this context (with its unsaved changes).
    public var objectSnapshot: [String: Value]
    /// The values as this context read them.
    public var cachedSnapshot: [String: Value]
    /// The values in the store now; nil when deleted.
    public var persistedSnapshot: [String: Value]?

    public var description: String {
        switch kind {
        case .version:
            return "\(objectID.uriString): changed in the store since it was read (version \(oldVersion) → \(newVersion == 0 ? "deleted" : String(newVersion)))"
        case .uniqueness(let attrs, let existing):
            return "\(objectID.uriString): \(attrs.joined(separator: ", ")) must be unique; \(existing.uriString) already has \(attrs.map { "\($0)=\(objectSnapshot[$0]?.description ?? "nil")" }.joined(separator: ", "))"
        }
    }
}
