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
            let what = newVersion == 0 ? "deleted" : "changed"
            return "another writer \(what) this \(objectID.entityName) since it was read (version \(oldVersion) → \(newVersion == 0 ? "deleted" : String(newVersion)); \(objectID.uriString))"
        case .uniqueness(let attrs, _):
            // The cause in the model's terms (`existing` names the other object for code).
            let entity = objectID.entityName
            let values = attrs.map { Self.quoted(objectSnapshot[$0] ?? .null) }.joined(separator: ", ")
            let what = attrs.count == 1 ? "\(entity).\(attrs[0]) must be unique"
                : "\(entity).(\(attrs.joined(separator: ", "))) must be unique together"
            return "\(what) (\(values) exists)"
        }
    }

    /// A value as the user would recognise it in a message: text in quotes.
    private static func quoted(_ v: Value) -> String {
        if case .string(let s) = v { return "'\(s)'" }
        return v.description
    }
}
