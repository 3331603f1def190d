import Foundation

/// Which entity, attribute and relationship of an older model each element of a
/// newer model continues. An element continues the old one with the same name,
/// unless its renaming identifier names an old element (by the old element's name,
/// or by the same renaming identifier: a stable identifier carried across several
/// versions links the whole chain). Each old element is continued at most once.
public struct ModelCorrespondence: Sendable {
    public let old: ManagedObjectModel
    public let new: ManagedObjectModel
    /// New entity name → old entity name.
    public let oldEntityName: [String: String]
    /// "NewEntity.newAttribute" → old attribute name (of the old entity).
    private let oldAttributeName: [String: String]
    /// "NewEntity.newRelationship" → old relationship name (of the old entity).
    private let oldRelationshipName: [String: String]

    /// When `old` is one of `new.previousVersions` (an Xcode bundle's older version),
    /// the correspondence is followed version by version, so that an element renamed in
    /// two versions (`title` → `heading` → `caption`, each renaming identifier naming the
    /// version before) continues the oldest one; otherwise it is read from the two models alone.
    public init(from old: ManagedObjectModel, to new: ManagedObjectModel) {
        let versions = new.versions(from: old) ?? [old, new]
        var result = Self(step: versions[0], versions[1])
        // By index: a `zip` of two slices costs its generic metadata at run time on first use.
        for i in versions.indices.dropFirst(2) {
            result = result.followed(by: Self(step: versions[i - 1], versions[i]))
        }
        self = result
    }

    private init(old: ManagedObjectModel, new: ManagedObjectModel, entities: [String: String],
                 attributes: [String: String], relationships: [String: String]) {
        self.old = old
        self.new = new
        oldEntityName = entities
        oldAttributeName = attributes
        oldRelationshipName = relationships
    }

    /// One version to the next.
    private init(step old: ManagedObjectModel, _ new: ManagedObjectModel) {
        let entities = Self.match(
            new.entityDescriptions.map { ($0.name, $0.renamingIdentifier) },
            old.entityDescriptions.map { ($0.name, $0.renamingIdentifier) })
        var attributes: [String: String] = [:]
        var relationships: [String: String] = [:]
        for (newName, oldName) in entities {
            guard let n = new.entity(named: newName), let o = old.entity(named: oldName) else { continue }
            let a = Self.match(n.attributes.map { ($0.name, $0.renamingIdentifier) }, o.attributes.map { ($0.name, $0.renamingIdentifier) })
            for (k, v) in a { attributes["\(newName).\(k)"] = v }
            let r = Self.match(n.relationships.map { ($0.name, $0.renamingIdentifier) }, o.relationships.map { ($0.name, $0.renamingIdentifier) })
            for (k, v) in r { relationships["\(newName).\(k)"] = v }
        }
        self.init(old: old, new: new, entities: entities, attributes: attributes, relationships: relationships)
    }

    /// This correspondence (A → B) and then `next` (B → C), as one from A to C: an element
    /// of C continues the element of A that its element of B continues.
    private func followed(by next: ModelCorrespondence) -> ModelCorrespondence {
        var entities: [String: String] = [:]
        var attributes: [String: String] = [:]
        var relationships: [String: String] = [:]
        for (newName, middle) in next.oldEntityName {
            guard let oldName = oldEntityName[middle] else { continue }
            entities[newName] = oldName
            for attribute in next.new.entity(named: newName)?.attributes ?? [] {
                if let m = next.oldAttributeName["\(newName).\(attribute.name)"], let o = oldAttributeName["\(middle).\(m)"] {
                    attributes["\(newName).\(attribute.name)"] = o
                }
            }
            for relationship in next.new.entity(named: newName)?.relationships ?? [] {
                if let m = next.oldRelationshipName["\(newName).\(relationship.name)"], let o = oldRelationshipName["\(middle).\(m)"] {
                    relationships["\(newName).\(relationship.name)"] = o
                }
            }
        }
        return ModelCorrespondence(old: old, new: next.new, entities: entities, attributes: attributes, relationships: relationships)
    }

    /// The old entity a new entity continues (nil: added).
    public func oldEntity(for newEntity: String) -> Entity? {
        oldEntityName[newEntity].flatMap { old.entity(named: $0) }
    }

    /// The new entity continuing an old one (nil: removed).
    public func newEntityName(for oldEntity: String) -> String? {
        oldEntityName.first { $0.value == oldEntity }?.key
    }

    /// The old attribute (resolved, inherited ones included) a new attribute continues.
    public func oldAttribute(entity: String, attribute: String) -> AttributeDescription? {
        guard let o = oldEntity(for: entity), let name = oldAttributeName["\(entity).\(attribute)"] else { return nil }
        return o.attribute(named: name)
    }

    /// The old relationship a new relationship continues.
    public func oldRelationship(entity: String, relationship: String) -> RelationshipDescription? {
        guard let o = oldEntity(for: entity), let name = oldRelationshipName["\(entity).\(relationship)"] else { return nil }
        return o.relationship(named: name)
    }

    /// Pairs new elements with old ones: renaming identifiers first, then equal names.
    private static func match(_ new: [(name: String, id: String?)], _ old: [(name: String, id: String?)]) -> [String: String] {
        var result: [String: String] = [:]
        var taken: Set<String> = []
        for n in new {
            guard let id = n.id, let o = old.first(where: { !taken.contains($0.name) && ($0.name == id || $0.id == id) }) else { continue }
            result[n.name] = o.name
            taken.insert(o.name)
        }
        for n in new where result[n.name] == nil {
            guard !taken.contains(n.name), old.contains(where: { $0.name == n.name }) else { continue }
            result[n.name] = n.name
            taken.insert(n.name)
        }
        return result
    }
}
