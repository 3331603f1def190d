import Foundation

/// Core Data's per-entity version hashes (`NSStoreModelVersionHashes`), reproduced byte for
/// byte (docs/core-data-stores.md has the recipe). Integers are little-endian.
public enum CoreDataVersionHash {
    /// Entity name → 32-byte SHA-256.
    ///
    /// Two passes: each entity's property digests (two SHA-256 per property, nearly all
    /// the work, independent per entity) are computed across the cores for a large model,
    /// then each entity's own digest, parents first, on this thread.
    public static func hashes(_ model: CoreDataModel) -> [String: Data] {
        hashes(model, workers: ParallelMap.workers(for: model.model.entityNames.count))
    }

    /// `hashes(_:)` with the property digests split among `workers` threads (1 or fewer: this one).
    static func hashes(_ model: CoreDataModel, workers: Int) -> [String: Data] {
        let names = model.model.entityNames
        let properties = propertyDigests(names, model, workers: workers)
        var position: [String: Int] = [:]
        position.reserveCapacity(names.count)
        for (i, name) in names.enumerated() { position[name] = i }
        var out: [String: Data] = [:]
        out.reserveCapacity(names.count)
        for name in names { _ = entityHash(name, model, properties, position, &out) }
        return out
    }

    /// For each of `names`, its non-transient properties' digests, sorted by property name
    /// and concatenated (32 bytes each).
    private static func propertyDigests(_ names: [String], _ model: CoreDataModel, workers: Int) -> [[UInt8]] {
        ParallelMap.map(count: names.count, workers: workers, state: { Scratch() }) { scratch, i in
            sortedPropertyDigests(names[i], model, &scratch)
        }
    }

    /// The names of the entities whose hashes differ between `model` and `stored` (missing
    /// on either side included), sorted.
    public static func differingEntities(_ model: CoreDataModel, stored: [String: Data]) -> [String] {
        let mine = hashes(model)
        return Set(mine.keys).union(stored.keys).filter { mine[$0] != stored[$0] }.sorted()
    }

    /// The hash of a root entity holding only `attributes` (used to confirm inferred models).
    static func entityHash(name: String, attributes: [AttributeDescription]) -> Data {
        var messages = Messages()
        var bytes = Array(name.utf8) + [0]
        for a in attributes.sorted(by: { $0.name < $1.name }) where !a.isTransient {
            appendAttributeHash(a, CoreDataPropertyDetails(), to: &bytes, &messages)
        }
        return Data(SHA256.digest(bytes))
    }

    /// Buffers reused by every digest of one model: a large model takes two digests per
    /// property, and each had allocated its message and its result.
    private struct Scratch {
        var messages = Messages()
        /// Each property's digest, 32 bytes at its position in `order`'s offsets.
        var digests: [UInt8] = []
        var order: [(name: String, offset: Int)] = []
    }

    private static func sortedPropertyDigests(_ name: String, _ m: CoreDataModel, _ scratch: inout Scratch) -> [UInt8] {
        guard let entity = m.model.entity(named: name) else { return [] }
        // Every non-transient property, inherited ones included, by name.
        scratch.digests.removeAll(keepingCapacity: true)
        scratch.order.removeAll(keepingCapacity: true)
        for (i, a) in entity.attributes.enumerated() where !a.isTransient {
            scratch.order.append((a.name, scratch.digests.count))
            appendAttributeHash(a, m.details(entity: entity.attributeDeclaringEntities[i], property: a.name), to: &scratch.digests, &scratch.messages)
        }
        for (i, r) in entity.relationships.enumerated() where !r.isTransient {
            scratch.order.append((r.name, scratch.digests.count))
            appendRelationshipHash(r, m.details(entity: entity.relationshipDeclaringEntities[i], property: r.name), to: &scratch.digests, &scratch.messages)
        }
        scratch.order.sort { $0.name < $1.name }
        var sorted: [UInt8] = []
        sorted.reserveCapacity(scratch.digests.count)
        for (_, offset) in scratch.order { sorted += scratch.digests[offset..<offset + 32] }
        return sorted
    }

    private static func entityHash(_ name: String, _ m: CoreDataModel, _ properties: [[UInt8]], _ position: [String: Int],
                                   _ memo: inout [String: Data]) -> Data {
        if let h = memo[name] { return h }
        guard let entity = m.model.entity(named: name), let at = position[name] else { return Data() }
        let decl = entity.declaration
        var bytes = Array(name.utf8) + [decl.isAbstract ? 1 : 0]
        if let parent = decl.parent { bytes += entityHash(parent, m, properties, position, &memo) }
        bytes += properties[at]
        if let modifier = m.details[name]?.versionHashModifier { bytes += modifier.utf8 }
        // Only the entity's own constraints (Core Data does not repeat inherited ones here).
        for c in decl.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() { bytes += c.utf8 }
        let h = Data(SHA256.digest(bytes))
        memo[name] = h
        return h
    }

    /// The messages of a property's two digests.
    private struct Messages {
        var property: [UInt8] = []
        var inner: [UInt8] = []
    }

    /// The digest of a property's name, flags and hash modifier, appended to `out`.
    private static func appendPropertyHash(name: String, optional: Bool, transient: Bool, _ d: CoreDataPropertyDetails,
                                           to out: inout [UInt8], _ inner: inout [UInt8]) {
        let flags = UInt16(optional ? 1 : 0) | UInt16(transient ? 2 : 0) | UInt16(d.isReadOnly ? 4 : 0)
        inner.removeAll(keepingCapacity: true)
        inner += name.utf8
        appendLittleEndian(flags, to: &inner)
        if let modifier = d.versionHashModifier { inner += modifier.utf8 }
        SHA256.appendDigest(of: inner, to: &out)
    }

    private static func appendAttributeHash(_ a: AttributeDescription, _ d: CoreDataPropertyDetails, to out: inout [UInt8], _ scratch: inout Messages) {
        if let expression = d.derivationExpression { SHA256.appendDigest(of: Array(expression.utf8), to: &out); return }
        scratch.property.removeAll(keepingCapacity: true)
        appendPropertyHash(name: a.name, optional: a.isOptional, transient: a.isTransient, d, to: &scratch.property, &scratch.inner)
        appendLittleEndian(d.attributeTypeCode ?? CoreDataAttributeCodes.code(a.type), to: &scratch.property)
        if d.allowsExternalStorage { scratch.property.append(1) }
        if a.preservesValueInHistoryOnDeletion { scratch.property.append(1) }
        SHA256.appendDigest(of: scratch.property, to: &out)
    }

    private static func appendRelationshipHash(_ r: RelationshipDescription, _ d: CoreDataPropertyDetails, to out: inout [UInt8], _ scratch: inout Messages) {
        scratch.property.removeAll(keepingCapacity: true)
        appendPropertyHash(name: r.name, optional: r.isOptional, transient: r.isTransient, d, to: &scratch.property, &scratch.inner)
        scratch.property += r.destination.utf8
        scratch.property += r.inverse.utf8
        // To-one: max 1, min 1 when required; to-many: 0 means no limit.
        let maxCount = r.isToMany ? Int32(r.maxCount ?? 0) : 1
        let minCount = r.isToMany ? Int32(r.minCount ?? 0) : (r.isOptional ? 0 : 1)
        appendLittleEndian(maxCount, to: &scratch.property)
        appendLittleEndian(minCount, to: &scratch.property)
        if r.isOrdered { appendLittleEndian(UInt16(1), to: &scratch.property) }
        SHA256.appendDigest(of: scratch.property, to: &out)
    }

    private static func appendLittleEndian<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        var v = v   // low byte first, whatever the host's order
        for _ in 0..<MemoryLayout<T>.size { out.append(UInt8(truncatingIfNeeded: v)); v >>= 8 }
    }
}
