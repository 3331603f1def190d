import Foundation

/// One change recorded in history.
public struct HistoryChange: Sendable, Hashable {
    public enum Kind: Int, Sendable { case insert = 0, update = 1, delete = 2 }
    public var objectID: ObjectID
    public var kind: Kind
    /// Changed attributes and to-one relationships (updates).
    public var changedKeys: Set<String>
    /// Values kept for a deleted row (attributes marked to be preserved).
    public var tombstone: [String: Value]
}

/// One transaction: a Vellum save, or a single write made outside Vellum (author nil).
public struct HistoryTransaction: Sendable {
    /// Vellum's transaction number, or nil for writes made outside Vellum.
    public var sequence: Int64?
    public var timestamp: Date
    public var author: String?
    public var processID: Int32?
    public var changes: [HistoryChange]
    /// The token after this transaction.
    public var token: HistoryToken

    /// The transaction as a save event, for merging into contexts.
    public func asDidSave() -> DidSave {
        var inserted = ObjectIDSet(), updated = ObjectIDSet(), deleted = ObjectIDSet()
        var keys: [ObjectID: Set<String>] = [:]
        for c in changes {
            switch c.kind {
            case .insert: inserted.insert(c.objectID); updated.remove(c.objectID)
            case .update:
                if !inserted.contains(c.objectID) { updated.insert(c.objectID) }
                keys[c.objectID, default: []].formUnion(c.changedKeys)
            case .delete:
                if inserted.remove(c.objectID) == nil { deleted.insert(c.objectID) }
                updated.remove(c.objectID)
            }
        }
        return DidSave(inserted: inserted, updated: updated, deleted: deleted, changedKeys: keys, author: author, sequence: token.rawValue)
    }
}
