import Foundation

/// An object as last seen: its ID, entity, attribute values and the IDs of its
/// relationships' destinations. `Sendable` and independent of any context, so
/// it outlives the object: undo of a delete and re-adding a record another
/// writer deleted put it back from this (see `ManagedObjectContext.restore`).
public struct ObjectSnapshot: Sendable, Equatable {
    public var objectID: ObjectID
    public var entityName: String
    public var values: [String: Value]
    /// Destinations by relationship name, in order; a relationship not named here is left empty on restore.
    public var relationships: [String: [ObjectID]]

    public init(objectID: ObjectID, entityName: String, values: [String: Value], relationships: [String: [ObjectID]] = [:]) {
        self.objectID = objectID
        self.entityName = entityName
        self.values = values
        self.relationships = relationships
    }

    /// An object of `entity` with attribute values aligned with `entity.attributes`, relationships not recorded.
    init(objectID: ObjectID, entity: Entity, values: [Value]) {
        var named: [String: Value] = [:]
        for (a, v) in zip(entity.attributes, values) { named[a.name] = v }
        self.init(objectID: objectID, entityName: entity.name, values: named)
    }
}

extension ManagedObjectContext {
    /// The object as it is now in this context (its fault fired, every relationship loaded).
    public func snapshot(of object: ManagedObject) throws -> ObjectSnapshot {
        var relationships: [String: [ObjectID]] = [:]
        for (i, r) in object.entity.relationships.enumerated() {
            relationships[r.name] = try relation(of: object, at: i).current.map(\.objectID)
        }
        return ObjectSnapshot(objectID: object.objectID, entityName: object.entity.name,
                              values: try object.dictionaryOfValues(), relationships: relationships)
    }
}
