import Foundation

/// What in-memory predicate evaluation and sorting need from an object: its
/// attribute values (including unsaved ones) and its related objects.
/// `ManagedObject` conforms; tests may use plain value graphs.
public protocol KeyValueSource {
    /// The entity this object is an instance of.
    var sourceEntity: Entity { get }
    /// The identity used to break ties in sort order.
    var sourceObjectID: ObjectID { get }
    /// The current value of an attribute (`.null` when nil).
    func attributeValue(forKey key: String) throws -> Value
    /// The destination of a to-one relationship, or nil.
    func toOneValue(forKey key: String) throws -> Self?
    /// The destinations of a to-many relationship.
    func toManyValue(forKey key: String) throws -> [Self]
}
