import Foundation

/// An entity resolved within its model: inherited properties included, lookups
/// by name in O(1). Immutable and shared by every context using the model.
public final class Entity: Sendable, CustomStringConvertible {
    public let name: String
    public let declaration: EntityDescription
    /// The top of this entity's inheritance chain; its table holds this entity's rows.
    public let rootName: String
    /// Ancestors from the root down to the direct parent.
    public let ancestorNames: [String]
    /// Direct sub-entities, sorted by name.
    public let subentityNames: [String]
    /// This entity and every descendant, in pre-order.
    public let hierarchyNames: [String]
    /// Inherited attributes first (root first), then this entity's own.
    public let attributes: [AttributeDescription]
    public let relationships: [RelationshipDescription]
    /// Inherited and own uniqueness constraints.
    public let uniquenessConstraints: [[String]]
    public let attributeIndexByName: [String: Int]
    /// The attributes' names, aligned with `attributes`: what generated entities check an
    /// index against (reading one name, not copying a whole description).
    public let attributeNames: [String]
    public let relationshipIndexByName: [String: Int]
    /// Indices of attributes that have a column (not transient).
    public let storedAttributeIndices: [Int]
    /// Each attribute's default value (`.null` where none), aligned with `attributes`.
    public let defaultValues: [Value]
    /// No default holds a reference (strings, data, URLs…): a new row's defaults can be
    /// copied as bytes, without a retain per value.
    let defaultValuesAreBitwise: Bool
    /// The key paths of its composite attributes and of composites nested in them
    /// (`magnitude`, `location.coords`): a key path through one names a leaf attribute.
    public let compositePaths: Set<String>
    /// The entity of the lineage declaring each attribute and relationship, aligned with
    /// `attributes` and `relationships` (details, columns and hashes are kept where a
    /// property is declared).
    public let attributeDeclaringEntities: [String]
    public let relationshipDeclaringEntities: [String]
    /// The scope of this entity's temporary object IDs.
    let temporaryIDScope: ObjectIDScope
    /// Attributes and relationships that have a rule to check on save.
    let validationRules: (attributes: [Int], relationships: [Int])

    /// The index of the attribute named `name`. A few names are compared in turn (short
    /// names compare as two machine words), which costs less than hashing `name` into
    /// `attributeIndexByName`: a bulk insert by dictionary looks every key up. O(1) for
    /// large entities, O(attributes) up to 16.
    @inline(__always)
    public func attributeIndex(named name: String) -> Int? {
        if attributeNames.count <= 16 { return attributeNames.firstIndex(of: name) }
        return attributeIndexByName[name]
    }

    public var isAbstract: Bool { declaration.isAbstract }
    public var description: String { name }

    init(declaration: EntityDescription, rootName: String, ancestorNames: [String],
         subentityNames: [String], hierarchyNames: [String],
         attributes: [AttributeDescription], relationships: [RelationshipDescription],
         uniquenessConstraints: [[String]], compositePaths: Set<String>,
         declaringEntities: (attributes: [String], relationships: [String])) {
        self.name = declaration.name
        self.declaration = declaration
        self.rootName = rootName
        self.ancestorNames = ancestorNames
        self.subentityNames = subentityNames
        self.hierarchyNames = hierarchyNames
        self.attributes = attributes
        self.relationships = relationships
        self.uniquenessConstraints = uniquenessConstraints
        self.compositePaths = compositePaths
        attributeDeclaringEntities = declaringEntities.attributes
        relationshipDeclaringEntities = declaringEntities.relationships
        var a: [String: Int] = [:]
        for (i, attr) in attributes.enumerated() { a[attr.name] = i }
        var r: [String: Int] = [:]
        for (i, rel) in relationships.enumerated() { r[rel.name] = i }
        attributeIndexByName = a
        attributeNames = attributes.map(\.name)
        relationshipIndexByName = r
        storedAttributeIndices = attributes.indices.filter { !attributes[$0].isTransient }
        // Defaults that do not coerce are refused when the model is validated (`ModelError.invalidDefault`).
        defaultValues = attributes.map { a in (try? a.defaultValue?.coerced(to: a.type)) ?? .null }
        defaultValuesAreBitwise = defaultValues.allSatisfy { v in
            switch v {
            case .null, .integer, .double, .decimal, .bool, .date, .uuid: return true
            default: return false
            }
        }
        validationRules = (
            attributes.indices.filter { i in
                let a = attributes[i]
                return !a.isTransient && (!a.isOptional || a.minValue != nil || a.maxValue != nil || a.regex != nil)
            },
            relationships.indices.filter { i in
                let r = relationships[i]
                return !r.isOptional || r.minCount != nil || r.maxCount != nil
            })
        temporaryIDScope = ObjectIDScope.intern(entityName: declaration.name, rootName: rootName, storeIdentifier: "")
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributeIndexByName[name].map { attributes[$0] }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationshipIndexByName[name].map { relationships[$0] }
    }

    /// True if `other` is this entity or one of its descendants.
    public func includes(_ other: String) -> Bool { hierarchyNames.contains(other) }

    /// True if this entity is `name` or inherits from it.
    public func isKind(of name: String) -> Bool { self.name == name || ancestorNames.contains(name) }
}
