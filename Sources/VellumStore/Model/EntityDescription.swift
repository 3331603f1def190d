import Foundation

/// A named index over one or more attributes.
public struct IndexDescription: Sendable, Hashable {
    public var name: String
    public var attributes: [String]
    public init(name: String, attributes: [String]) {
        self.name = name
        self.attributes = attributes
    }
}

/// An entity as declared: its own properties only. Inherited properties are
/// resolved by `ManagedObjectModel` (see `Entity`).
public struct EntityDescription: Sendable, Hashable {
    public var name: String
    public var parent: String?
    public var isAbstract: Bool
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// Each element is one constraint: a set of attribute names unique together.
    public var uniquenessConstraints: [[String]]
    public var indexes: [IndexDescription]
    public var userInfo: [String: String]
    public var renamingIdentifier: String?

    public init(
        name: String, parent: String? = nil, isAbstract: Bool = false,
        attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
        uniquenessConstraints: [[String]] = [], indexes: [IndexDescription] = [],
        userInfo: [String: String] = [:], renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.parent = parent
        self.isAbstract = isAbstract
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.indexes = indexes
        self.userInfo = userInfo
        self.renamingIdentifier = renamingIdentifier
    }
}
