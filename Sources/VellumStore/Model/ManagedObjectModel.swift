import Foundation

/// A validated object model: entities with inheritance resolved. Create one from
/// descriptions (or `ModelBuilder`, a JSON file, an Xcode model); invalid models
/// are refused with a `ModelError` naming the entity and property.
public final class ManagedObjectModel: Sendable, Equatable, CustomStringConvertible {
    /// The declarations, sorted by entity name.
    public let entityDescriptions: [EntityDescription]
    /// Resolved entities by name.
    public let entitiesByName: [String: Entity]
    /// Entity names, sorted.
    public let entityNames: [String]
    /// A SHA-256 over the model's structure, independent of declaration order. Computed
    /// on first use (once): a Core Data store's model never needs it, and for a model of
    /// thousands of properties it is a tenth of the time to open one.
    public var versionHash: String {
        hashCache.withLock { cached in
            if let cached { return cached }
            let h = SHA256.hex(Self.canonicalText(entityDescriptions))
            cached = h
            return h
        }
    }
    private let hashCache: Locked<String?>

    /// Takes `hash` as the version hash without computing it, unless it is known already:
    /// for a model read back from a store, whose metadata recorded its hash beside it.
    func adoptVersionHash(_ hash: String) {
        hashCache.withLock { if $0 == nil { $0 = hash } }
    }
    /// The version's name as its author gave it (JSON `versionIdentifier`, Xcode's
    /// `userDefinedModelVersionIdentifier`); not part of `versionHash`.
    public let versionIdentifier: String?
    /// The versions before this one, oldest first, when the model came from a versioned
    /// bundle (an Xcode `.xcdatamodeld`, or `previousVersions(_:)`). A migration from
    /// one of them follows the renaming identifiers version by version
    /// (`ModelCorrespondence`), so an element renamed in two steps keeps its data.
    /// Not part of `versionHash` or `==`, and not stored with the model.
    public let previousVersions: [ManagedObjectModel]

    /// Validates `entities` into a model; a refusal is `StoreError.model`, naming the entity and property.
    public convenience init(entities: [EntityDescription], versionIdentifier: String? = nil) throws(StoreError) {
        do { try self.init(validating: entities, versionIdentifier: versionIdentifier) } catch { throw .model(error) }
    }

    init(validating entities: [EntityDescription], versionIdentifier: String? = nil) throws(ModelError) {
        self.versionIdentifier = versionIdentifier
        previousVersions = []
        let sorted = entities.sorted { $0.name < $1.name }
        var byName: [String: EntityDescription] = [:]
        for e in sorted {
            if e.name.isEmpty { throw .invalidName(entity: e.name, property: nil, detail: "entity name is empty") }
            if byName[e.name] != nil { throw .duplicateEntity(e.name) }
            byName[e.name] = e
        }
        entityDescriptions = sorted
        entitiesByName = try Self.resolve(byName)
        entityNames = sorted.map(\.name)
        try Self.validateRelationships(entitiesByName)
        try Self.validateSQLNames(entitiesByName)
        hashCache = Locked(nil)
    }

    private init(_ model: ManagedObjectModel, previousVersions: [ManagedObjectModel]) {
        entityDescriptions = model.entityDescriptions
        entitiesByName = model.entitiesByName
        entityNames = model.entityNames
        hashCache = Locked(model.hashCache.withLock { $0 })
        versionIdentifier = model.versionIdentifier
        self.previousVersions = previousVersions
    }

    /// This model with `versions` (oldest first) as the versions before it, for models
    /// made in Swift or JSON whose elements were renamed over several versions.
    public func previousVersions(_ versions: [ManagedObjectModel]) -> ManagedObjectModel {
        ManagedObjectModel(self, previousVersions: versions)
    }

    /// The versions from `old` to this model, when `old` is this model or one of its
    /// previous versions (by hash): `[old, …, self]`; nil otherwise.
    func versions(from old: ManagedObjectModel) -> [ManagedObjectModel]? {
        if old.versionHash == versionHash { return [old, self] }
        guard let at = previousVersions.lastIndex(where: { $0.versionHash == old.versionHash }) else { return nil }
        return [old] + previousVersions[(at + 1)...] + [self]
    }

    public func entity(named name: String) -> Entity? { entitiesByName[name] }

    /// Root entities (no parent), sorted by name.
    public var rootEntities: [Entity] { entityNames.compactMap { entitiesByName[$0] }.filter { $0.declaration.parent == nil } }

    public static func == (lhs: ManagedObjectModel, rhs: ManagedObjectModel) -> Bool {
        lhs.entityDescriptions == rhs.entityDescriptions
    }

    public var description: String { "ManagedObjectModel(\(entityNames.joined(separator: ", ")))" }

    // MARK: - Resolution

    private static func resolve(_ byName: [String: EntityDescription]) throws(ModelError) -> [String: Entity] {
        // Ancestors, checking parents and cycles.
        var ancestors: [String: [String]] = [:]
        for name in byName.keys.sorted() {
            var chain: [String] = []
            var current = byName[name]!
            var seen: Set<String> = [name]
            while let parent = current.parent {
                guard let p = byName[parent] else { throw .unknownParent(entity: current.name, parent: parent) }
                if !seen.insert(parent).inserted { throw .inheritanceCycle(entity: name) }
                chain.insert(parent, at: 0)
                current = p
            }
            ancestors[name] = chain
        }
        var children: [String: [String]] = [:]
        for e in byName.values { if let p = e.parent { children[p, default: []].append(e.name) } }
        for k in children.keys { children[k]!.sort() }
        func preorder(_ name: String) -> [String] { [name] + (children[name] ?? []).flatMap(preorder) }

        // Each entity is resolved on its own: a large model is split across the cores.
        let names = byName.keys.sorted()
        let resolved = try ParallelMap.map(count: names.count, workers: ParallelMap.workers(for: names.count)) { i throws(ModelError) -> Entity in
            let name = names[i], decl = byName[name]!
            let chain = ancestors[name]!
            let lineage = chain.map { byName[$0]! } + [decl]
            var attributes: [AttributeDescription] = []
            var relationships: [RelationshipDescription] = []
            var propertyNames: Set<String> = []
            var constraints: [[String]] = []
            var compositePaths: Set<String> = []
            var attributeOwners: [String] = [], relationshipOwners: [String] = []
            func addAttribute(_ a: AttributeDescription, declaredBy level: String) throws(ModelError) {
                guard propertyNames.insert(a.name).inserted else { throw .duplicateProperty(entity: name, property: a.name) }
                try validateAttribute(a, entity: level)
                attributes.append(a)
                attributeOwners.append(level)
            }
            for level in lineage {
                for declared in level.attributes {
                    // Most attributes are not composites: no leaf array made for them.
                    if declared.type != .composite && declared.elements.isEmpty {
                        try addAttribute(declared, declaredBy: level.name)
                        continue
                    }
                    try declared.validateComposite(entity: level.name)
                    for path in declared.compositePaths {
                        guard propertyNames.insert(path).inserted else { throw .duplicateProperty(entity: name, property: path) }
                        compositePaths.insert(path)
                    }
                    for a in declared.leaves { try addAttribute(a, declaredBy: level.name) }
                }
                for r in level.relationships {
                    guard propertyNames.insert(r.name).inserted else { throw .duplicateProperty(entity: name, property: r.name) }
                    relationships.append(r)
                    relationshipOwners.append(level.name)
                }
                constraints.append(contentsOf: level.uniquenessConstraints)
            }
            for c in decl.uniquenessConstraints {
                for a in c where !attributes.contains(where: { $0.name == a && !$0.isTransient }) {
                    throw .constraintOnMissingAttribute(entity: name, attribute: a)
                }
            }
            for index in decl.indexes {
                for a in index.attributes where !propertyNames.contains(a) || compositePaths.contains(a) {
                    throw .indexOnMissingAttribute(entity: name, index: index.name, attribute: a)
                }
            }
            return Entity(
                declaration: decl, rootName: chain.first ?? name, ancestorNames: chain,
                subentityNames: children[name] ?? [], hierarchyNames: preorder(name),
                attributes: attributes, relationships: relationships, uniquenessConstraints: constraints,
                compositePaths: compositePaths,
                declaringEntities: (attributeOwners, relationshipOwners))
        }
        var result: [String: Entity] = [:]
        result.reserveCapacity(names.count)
        for entity in resolved { result[entity.name] = entity }
        // Indexes are named in their hierarchy's one table: a name used twice there is refused
        // here, not by the database when the store is created or migrated.
        for root in names where byName[root]!.parent == nil {
            var indexNames: Set<String> = []
            for member in preorder(root) {
                for index in byName[member]!.indexes where !indexNames.insert(index.name).inserted {
                    throw .invalidName(entity: member, property: nil, detail: "index \(index.name) is declared twice in its hierarchy")
                }
            }
        }
        return result
    }

    private static func validateAttribute(_ a: AttributeDescription, entity: String) throws(ModelError) {
        if a.name.isEmpty || a.name.hasPrefix("_") {
            throw .invalidName(entity: entity, property: a.name, detail: "property names must be non-empty and not start with '_'")
        }
        if a.type == .undefined && !a.isTransient { throw .undefinedTypeNotTransient(entity: entity, property: a.name) }
        if let d = a.defaultValue {
            do { _ = try d.coerced(to: a.type) } catch {
                throw .invalidDefault(entity: entity, property: a.name, detail: error.description)
            }
        }
        // The failure is the finding: it is reported as `invalidRegex` below.
        if let pattern = a.regex, (try? NSRegularExpression(pattern: pattern)) == nil {
            throw .invalidRegex(entity: entity, property: a.name, pattern: pattern)
        }
    }

    private static func validateRelationships(_ entities: [String: Entity]) throws(ModelError) {
        for name in entities.keys.sorted() {
            let entity = entities[name]!
            for r in entity.declaration.relationships {
                guard let destination = entities[r.destination] else {
                    throw .missingDestination(entity: name, relationship: r.name, destination: r.destination)
                }
                if r.inverse.isEmpty { throw .missingInverse(entity: name, relationship: r.name) }
                guard let inverse = destination.relationship(named: r.inverse) else {
                    throw .inverseMismatch(entity: name, relationship: r.name,
                                           detail: "inverse \(r.inverse) does not exist on \(r.destination)")
                }
                guard inverse.inverse == r.name else {
                    throw .inverseMismatch(entity: name, relationship: r.name,
                                           detail: "inverse \(r.destination).\(r.inverse) names \(inverse.inverse) as its inverse, not \(r.name)")
                }
                guard entities[inverse.destination]?.rootName == entity.rootName else {
                    throw .inverseMismatch(entity: name, relationship: r.name,
                                           detail: "inverse \(r.destination).\(r.inverse) points to \(inverse.destination), not \(name)")
                }
            }
        }
    }

    // MARK: - Version hash

    /// A canonical text of everything that affects the store's shape or validation;
    /// sorted so that declaration order does not matter.
    ///
    /// Written piece by piece into one string (interpolating each line built a string per
    /// line and a description per flag: most of a small migration's hashing). The text,
    /// and so every stored hash, is pinned by `ModelVersionHashPinTests`.
    static func canonicalText(_ entities: [EntityDescription]) -> String {
        var out = "vellum-model-1\n"
        func flag(_ b: Bool) -> String { b ? "true" : "false" }
        for e in entities.sorted(by: { $0.name < $1.name }) {
            out += "E "; out += e.name; out += " parent="; out += e.parent ?? ""; out += " abstract="; out += flag(e.isAbstract); out += "\n"
            for a in e.leafAttributes.sorted(by: { $0.name < $1.name }) {
                out += "A "; out += a.name; out += " "; out += a.type.rawValue
                out += " opt="; out += flag(a.isOptional); out += " transient="; out += flag(a.isTransient)
                out += " default="; if let d = a.defaultValue { out += String(reflecting: d) }
                out += " min="; if let m = a.minValue { out += m.description }
                out += " max="; if let m = a.maxValue { out += m.description }
                out += " regex="; out += a.regex ?? ""; out += " indexed="; out += flag(a.isIndexed); out += "\n"
            }
            for r in e.relationships.sorted(by: { $0.name < $1.name }) {
                out += "R "; out += r.name; out += " "; out += r.destination; out += " inverse="; out += r.inverse
                out += " many="; out += flag(r.isToMany); out += " ordered="; out += flag(r.isOrdered); out += " opt="; out += flag(r.isOptional)
                out += " min="; out += String(r.minCount ?? -1); out += " max="; out += String(r.maxCount ?? -1)
                out += " rule="; out += r.deleteRule.rawValue; out += "\n"
            }
            for c in e.uniquenessConstraints.map({ $0.sorted() }).sorted(by: { $0.joined(separator: ",") < $1.joined(separator: ",") }) {
                out += "U "; out += c.joined(separator: ","); out += "\n"
            }
            for i in e.indexes.sorted(by: { $0.name < $1.name }) {
                out += "I "; out += i.name; out += " "; out += i.attributes.joined(separator: ","); out += "\n"
            }
        }
        return out
    }
}
