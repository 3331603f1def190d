import Foundation

/// What happens to related objects when the source object is deleted.
public enum DeleteRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Remove the deleted object from the inverse relationship.
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse the delete while the relationship is not empty.
    case deny
    /// Leave the related objects untouched.
    case noAction
    /// SQL's `ON DELETE SET DEFAULT`: each related object's inverse to-one takes the
    /// object its foreign-key column's `DEFAULT` names (`StoreLayout.defaultForeignKey`,
    /// another program's database); where there is no default (a Vellum store), it is
    /// cleared, as by nullify.
    case setDefault
}

/// A relationship from one entity to another. Every relationship has an inverse.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    public var destination: String
    public var inverse: String
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var minCount: Int?
    public var maxCount: Int?
    public var deleteRule: DeleteRule
    public var isTransient: Bool
    public var renamingIdentifier: String?

    public init(
        name: String, destination: String, inverse: String, isToMany: Bool = false,
        isOrdered: Bool = false, isOptional: Bool = true, minCount: Int? = nil, maxCount: Int? = nil,
        deleteRule: DeleteRule = .nullify, isTransient: Bool = false, renamingIdentifier: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        self.isTransient = isTransient
        self.renamingIdentifier = renamingIdentifier
    }
}
