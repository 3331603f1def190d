import Foundation

/// Core Data's per-entity version hashes (`NSStoreModelVersionHashes`), reproduced byte for
/// byte (docs/core-data-stores.md has the recipe). Integers are little-endian.
public enum CoreDataVersionHash {
    /// Entity name → 32-byte SHA-256.
    public static func hashes(_ model: CoreDataModel) -> [String: Data] {
        var out: [String: Data] = [:]
        for name in model.model.entityNames { _ = entityHash(name, model, &out) }
        return out
    }

    /// The names of the entities whose hashes differ between `model` and `stored` (missing
    /// on either side included), sorted.
    public static func differingEntities(_ model: CoreDataModel, stored: [String: Data]) -> [String] {
        let mine = hashes(model)
        return Set(mine.keys).union(stored.keys).filter { mine[$0] != stored[$0] }.sorted()
    }

    /// The hash of a root entity holding only `attributes` (used to confirm inferred models).
    static func entityHash(name: String, attributes: [AttributeDescription]) -> Data {
        var bytes = Array(name.utf8) + [0]
        for a in attributes.sorted(by: { $0.name < $1.name }) where !a.isTransient {
            bytes += attributeHash(a, CoreDataPropertyDetails())
        }
        return Data(SHA256.digest(bytes))
    }

    private static func entityHash(_ name: String, _ m: CoreDataModel, _ memo: inout [String: Data]) -> Data {
        if let h = memo[name] { return h }
        guard let entity = m.model.entity(named: name) else { return Data() }
        let decl = entity.declaration
        var bytes = Array(name.utf8) + [decl.isAbstract ? 1 : 0]
        if let parent = decl.parent { bytes += entityHash(parent, m, &memo) }
        // Every non-transient property, inherited ones included, by name.
        var props: [(String, [UInt8])] = []
        for (i, a) in entity.attributes.enumerated() where !a.isTransient {
            props.append((a.name, attributeHash(a, entity.attributeDeclaringEntities[i], m)))
        }
        for (i, r) in entity.relationships.enumerated() where !r.isTransient {
            props.append((r.name, relationshipHash(r, entity.relationshipDeclaringEntities[i], m)))
        }
        for (_, h) in props.sorted(by: { $0.0 < $1.0 }) { bytes += h }
        if let modifier = m.details[name]?.versionHashModifier { bytes += Array(modifier.utf8) }
        // Only the entity's own constraints (Core Data does not repeat inherited ones here).
        for c in decl.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() { bytes += Array(c.utf8) }
        let h = Data(SHA256.digest(bytes))
        memo[name] = h
        return h
    }

    private static func propertyHash(name: String, optional: Bool, transient: Bool, _ d: CoreDataPropertyDetails) -> [UInt8] {
        let flags = UInt16(optional ? 1 : 0) | UInt16(transient ? 2 : 0) | UInt16(d.isReadOnly ? 4 : 0)
        return SHA256.digest(Array(name.utf8) + le(flags) + Array((d.versionHashModifier ?? "").utf8))
    }

    private static func attributeHash(_ a: AttributeDescription, _ entity: String, _ m: CoreDataModel) -> [UInt8] {
        attributeHash(a, m.details(entity: entity, property: a.name))
    }

    private static func attributeHash(_ a: AttributeDescription, _ d: CoreDataPropertyDetails) -> [UInt8] {
        if let expression = d.derivationExpression { return SHA256.digest(Array(expression.utf8)) }
        var bytes = propertyHash(name: a.name, optional: a.isOptional, transient: a.isTransient, d)
        bytes += le(d.attributeTypeCode ?? CoreDataAttributeCodes.code(a.type))
        if d.allowsExternalStorage { bytes.append(1) }
        if a.preservesValueInHistoryOnDeletion { bytes.append(1) }
        return SHA256.digest(bytes)
    }

    private static func relationshipHash(_ r: RelationshipDescription, _ entity: String, _ m: CoreDataModel) -> [UInt8] {
        let d = m.details(entity: entity, property: r.name)
        var bytes = propertyHash(name: r.name, optional: r.isOptional, transient: r.isTransient, d)
        bytes += Array(r.destination.utf8) + Array(r.inverse.utf8)
        // To-one: max 1, min 1 when required; to-many: 0 means no limit.
        let maxCount = r.isToMany ? Int32(r.maxCount ?? 0) : 1
        let minCount = r.isToMany ? Int32(r.minCount ?? 0) : (r.isOptional ? 0 : 1)
        bytes += le(maxCount) + le(minCount)
        if r.isOrdered { bytes += le(UInt16(1)) }
        return SHA256.digest(bytes)
    }

    private static func le<T: FixedWidthInteger>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v.littleEndian, Array.init) }
}
