import Foundation

/// A committed save: which objects it inserted, updated and deleted, with the
/// changed keys per object, who wrote it, and a sequence token. The IDs are kept in
/// `ObjectIDSet`s: a bulk save's consecutive keys cost a few bytes, not a hash table.
public struct DidSave: Sendable {
    public var inserted: ObjectIDSet
    public var updated: ObjectIDSet
    public var deleted: ObjectIDSet
    public var changedKeys: [ObjectID: Set<String>]
    public var author: String?
    /// Increases with every save through the same store object.
    public var sequence: Int64
    public init(inserted: ObjectIDSet, updated: ObjectIDSet, deleted: ObjectIDSet,
                changedKeys: [ObjectID: Set<String>], author: String?, sequence: Int64) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.changedKeys = changedKeys
        self.author = author
        self.sequence = sequence
    }

    public var isEmpty: Bool { inserted.isEmpty && updated.isEmpty && deleted.isEmpty }
}
