/// What deleting some objects would do under the model's delete rules, counted
/// before anything is deleted (`ManagedObjectContext.deletionPreview(of:)`): the
/// objects cascade rules would delete with them, and the deny rules that would
/// refuse the save. A browser states these in its "delete?" question.
public struct DeletionPreview: Sendable, Equatable {
    /// A deny rule that would refuse the save: `objects` of the deleted `entity` still
    /// hold `related` objects (not themselves deleted) through `relationship`.
    public struct Denial: Sendable, Equatable {
        public var entity: String
        public var relationship: String
        public var objects: Int
        public var related: Int

        public init(entity: String, relationship: String, objects: Int, related: Int) {
            (self.entity, self.relationship, self.objects, self.related) = (entity, relationship, objects, related)
        }
    }

    /// Objects that would be deleted, per entity: the asked ones that exist, and those cascade rules reach.
    public var deleted: [String: Int] = [:]
    /// Of `deleted`, the objects only cascade rules reach (not asked for), per entity.
    public var cascaded: [String: Int] = [:]
    /// Deny rules that would refuse the save, in the order met (entity, then relationship).
    public var denials: [Denial] = []
    /// Asked objects that no longer exist (another writer deleted them).
    public var missing = 0

    public init() {}

    /// All objects that would be deleted.
    public var deletedCount: Int { deleted.values.reduce(0, +) }
    /// All objects cascade rules would add.
    public var cascadedCount: Int { cascaded.values.reduce(0, +) }
}
