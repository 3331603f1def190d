import Foundation

/// One difference between two models, in words, under the entity it concerns
/// (the new entity's name; the old one's when the entity was removed).
public struct ModelChange: Sendable, Hashable, CustomStringConvertible {
    public var entity: String
    public var detail: String
    public var description: String { "\(entity): \(detail)" }
}

/// The differences between an old and a new model, following renames
/// (`ModelCorrespondence`). Only what affects the store or validation is listed.
public enum ModelDiff {
    public static func changes(from old: ManagedObjectModel, to new: ManagedObjectModel) -> [ModelChange] {
        changes(ModelCorrespondence(from: old, to: new))
    }

    public static func changes(_ c: ModelCorrespondence) -> [ModelChange] {
        var out: [ModelChange] = []
        for name in c.new.entityNames {
            let n = c.new.entity(named: name)!
            guard let o = c.oldEntity(for: name) else {
                out.append(ModelChange(entity: name, detail: "entity added"))
                continue
            }
            out += entityChanges(o, n, c).map { ModelChange(entity: name, detail: $0) }
        }
        for name in c.old.entityNames where c.newEntityName(for: name) == nil {
            out.append(ModelChange(entity: name, detail: "entity removed"))
        }
        return out
    }

    private static func entityChanges(_ o: Entity, _ n: Entity, _ c: ModelCorrespondence) -> [String] {
        var out: [String] = []
        if o.name != n.name { out.append("entity renamed from \(o.name)") }
        let oldParent = o.declaration.parent.flatMap { c.newEntityName(for: $0) } ?? o.declaration.parent
        if oldParent != n.declaration.parent {
            out.append("parent \(o.declaration.parent ?? "none") → \(n.declaration.parent ?? "none")")
        }
        if o.isAbstract != n.isAbstract { out.append(n.isAbstract ? "now abstract" : "no longer abstract") }
        var continued: Set<String> = []
        for a in n.attributes {
            guard let oa = c.oldAttribute(entity: n.name, attribute: a.name) else {
                out.append("attribute \(a.name) added (\(a.type.rawValue), \(a.isOptional ? "optional" : "required")\(a.defaultValue.map { ", default \(String(describing: $0))" } ?? ""))")
                continue
            }
            continued.insert(oa.name)
            out += attributeChanges(oa, a)
        }
        for a in o.attributes where !continued.contains(a.name) { out.append("attribute \(a.name) removed") }
        continued = []
        for r in n.relationships {
            guard let or = c.oldRelationship(entity: n.name, relationship: r.name) else {
                out.append("relationship \(r.name) added (\(r.isToMany ? "to-many" : "to-one") \(r.destination))")
                continue
            }
            continued.insert(or.name)
            out += relationshipChanges(or, r, c)
        }
        for r in o.relationships where !continued.contains(r.name) { out.append("relationship \(r.name) removed") }
        out += listChanges("uniqueness constraint", o.declaration.uniquenessConstraints.map { "(\($0.joined(separator: ", ")))" },
                           n.declaration.uniquenessConstraints.map { "(\($0.joined(separator: ", ")))" })
        out += listChanges("index", o.declaration.indexes.map { "\($0.name) (\($0.attributes.joined(separator: ", ")))" },
                           n.declaration.indexes.map { "\($0.name) (\($0.attributes.joined(separator: ", ")))" })
        return out
    }

    private static func attributeChanges(_ o: AttributeDescription, _ n: AttributeDescription) -> [String] {
        let name = n.name
        var out: [String] = []
        if o.name != n.name { out.append("attribute \(o.name) renamed to \(n.name)") }
        if o.type != n.type { out.append("attribute \(name) type \(o.type.rawValue) → \(n.type.rawValue)") }
        if o.isOptional != n.isOptional { out.append("attribute \(name) \(o.isOptional ? "optional → required" : "required → optional")") }
        if o.isTransient != n.isTransient { out.append("attribute \(name) \(n.isTransient ? "now transient" : "no longer transient")") }
        if o.defaultValue != n.defaultValue { out.append("attribute \(name) default \(text(o.defaultValue)) → \(text(n.defaultValue))") }
        if o.minValue != n.minValue { out.append("attribute \(name) minimum \(text(o.minValue)) → \(text(n.minValue))") }
        if o.maxValue != n.maxValue { out.append("attribute \(name) maximum \(text(o.maxValue)) → \(text(n.maxValue))") }
        if o.regex != n.regex { out.append("attribute \(name) regex \(o.regex ?? "none") → \(n.regex ?? "none")") }
        if o.isIndexed != n.isIndexed { out.append("attribute \(name) \(n.isIndexed ? "now indexed" : "no longer indexed")") }
        return out
    }

    private static func relationshipChanges(_ o: RelationshipDescription, _ n: RelationshipDescription, _ c: ModelCorrespondence) -> [String] {
        let name = n.name
        var out: [String] = []
        if o.name != n.name { out.append("relationship \(o.name) renamed to \(n.name)") }
        if (c.newEntityName(for: o.destination) ?? o.destination) != n.destination {
            out.append("relationship \(name) destination \(o.destination) → \(n.destination)")
        }
        if o.isToMany != n.isToMany { out.append("relationship \(name) \(o.isToMany ? "to-many → to-one" : "to-one → to-many")") }
        if o.isOrdered != n.isOrdered { out.append("relationship \(name) \(n.isOrdered ? "now ordered" : "no longer ordered")") }
        if o.isOptional != n.isOptional { out.append("relationship \(name) \(o.isOptional ? "optional → required" : "required → optional")") }
        // An inverse that was only renamed is the same inverse.
        let inverseWas = c.oldRelationship(entity: n.destination, relationship: n.inverse)?.name ?? n.inverse
        if o.inverse != inverseWas { out.append("relationship \(name) inverse \(o.inverse) → \(n.inverse)") }
        if o.minCount != n.minCount || o.maxCount != n.maxCount {
            out.append("relationship \(name) count \(text(o.minCount))...\(text(o.maxCount)) → \(text(n.minCount))...\(text(n.maxCount))")
        }
        if o.deleteRule != n.deleteRule { out.append("relationship \(name) delete rule \(o.deleteRule.rawValue) → \(n.deleteRule.rawValue)") }
        return out
    }

    private static func listChanges(_ what: String, _ old: [String], _ new: [String]) -> [String] {
        new.filter { !old.contains($0) }.map { "\(what) \($0) added" } + old.filter { !new.contains($0) }.map { "\(what) \($0) removed" }
    }

    private static func text<T>(_ v: T?) -> String { v.map { "\($0)" } ?? "none" }
}
