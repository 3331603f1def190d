import Foundation

/// The Swift way to define a model:
///
///     let model = try ModelBuilder()
///         .entity("Provider") { $0.attribute("name", .string, optional: false)
///                               $0.toMany("products", "Product", inverse: "provider") }
///         .entity("Product") { $0.attribute("price", .double)
///                              $0.toOne("provider", "Provider", inverse: "products") }
///         .build()
public struct ModelBuilder {
    private var entities: [EntityDescription] = []
    private let versionIdentifier: String?

    /// `versionIdentifier`: the version's name as its author gives it (as JSON's top-level
    /// `versionIdentifier` and Xcode's version name); it is not part of the version hash.
    public init(versionIdentifier: String? = nil) { self.versionIdentifier = versionIdentifier }

    /// `renamedFrom`: the renaming identifier (the entity's name in an older version).
    public func entity(_ name: String, parent: String? = nil, abstract: Bool = false, renamedFrom: String? = nil,
                       _ body: (inout EntityBuilder) -> Void = { _ in }) -> ModelBuilder {
        var builder = EntityBuilder(EntityDescription(name: name, parent: parent, isAbstract: abstract, renamingIdentifier: renamedFrom))
        body(&builder)
        var copy = self
        copy.entities.append(builder.description)
        return copy
    }

    public func build() throws(StoreError) -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities, versionIdentifier: versionIdentifier)
    }
}

/// Adds properties, constraints and indexes to one entity of a `ModelBuilder`.
public struct EntityBuilder {
    public private(set) var description: EntityDescription

    init(_ description: EntityDescription) { self.description = description }

    public mutating func attribute(
        _ name: String, _ type: AttributeType, optional: Bool = true, default defaultValue: Value? = nil,
        min: Double? = nil, max: Double? = nil, regex: String? = nil, indexed: Bool = false,
        transient: Bool = false, preservedOnDeletion: Bool = false, renamedFrom: String? = nil
    ) {
        description.attributes.append(AttributeDescription(
            name: name, type: type, isOptional: optional, isTransient: transient, defaultValue: defaultValue,
            minValue: min, maxValue: max, regex: regex, isIndexed: indexed,
            preservesValueInHistoryOnDeletion: preservedOnDeletion, renamingIdentifier: renamedFrom))
    }

    /// A composite attribute: a named group of `elements` (made with `AttributeDescription`
    /// or `.composite(…)` for a nested group), stored and queried as `name.element`.
    public mutating func composite(_ name: String, optional: Bool = true, renamedFrom: String? = nil,
                                   _ elements: [AttributeDescription]) {
        description.attributes.append(.composite(name, elements, optional: optional, renamingIdentifier: renamedFrom))
    }

    public mutating func toOne(_ name: String, _ destination: String, inverse: String,
                               optional: Bool = true, deleteRule: DeleteRule = .nullify, renamedFrom: String? = nil) {
        description.relationships.append(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isToMany: false,
            isOptional: optional, deleteRule: deleteRule, renamingIdentifier: renamedFrom))
    }

    public mutating func toMany(_ name: String, _ destination: String, inverse: String, ordered: Bool = false,
                                optional: Bool = true, min: Int? = nil, max: Int? = nil,
                                deleteRule: DeleteRule = .nullify, renamedFrom: String? = nil) {
        description.relationships.append(RelationshipDescription(
            name: name, destination: destination, inverse: inverse, isToMany: true, isOrdered: ordered,
            isOptional: optional, minCount: min, maxCount: max, deleteRule: deleteRule, renamingIdentifier: renamedFrom))
    }

    /// A uniqueness constraint over one or more attributes.
    public mutating func unique(_ attributes: String...) {
        description.uniquenessConstraints.append(attributes)
    }

    public mutating func index(_ name: String, _ attributes: String...) {
        description.indexes.append(IndexDescription(name: name, attributes: attributes))
    }
}
