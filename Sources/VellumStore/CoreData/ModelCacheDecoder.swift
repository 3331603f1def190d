import Foundation

/// Decodes Core Data's compiled model (the keyed archive inside `Z_MODELCACHE`) into a
/// `CoreDataModel`. Entities repeat inherited properties: a sub-entity keeps those its
/// parent does not have.
public enum ModelCacheDecoder {
    public static func decode(_ archive: KeyedArchive) throws(StoreError) -> CoreDataModel {
        let root = try archive.root()
        guard try archive.className(root) == "NSManagedObjectModel" else {
            throw archive.fail("the root is \(try archive.describe(root)), not an NSManagedObjectModel")
        }
        let entries = try archive.entries(try archive.field(root, "NSEntities"))
        // Entities decode independently: a large model is split across the cores, in two
        // passes because a sub-entity needs its parent's property names.
        let workers = ParallelMap.workers(for: entries.count)
        let read = try ParallelMap.map(count: entries.count, workers: workers) { i throws(StoreError) in
            try readEntity(archive, named: entries[i].key, entries[i].value)
        }
        var position: [String: Int] = [:]
        position.reserveCapacity(read.count)
        for (i, r) in read.enumerated() { position[r.declaration.name] = i }
        let decoded = try ParallelMap.map(count: read.count, workers: workers) { i throws(StoreError) in
            var r = read[i]
            let inherited = r.declaration.parent.flatMap { position[$0] }.map { read[$0].properties } ?? []
            var parentAt = 0
            r.details.properties.reserveCapacity(r.properties.count - inherited.count)
            for (name, ref) in r.properties {
                // Both lists are sorted by name: the parent's are skipped in one merge pass.
                while parentAt < inherited.count && inherited[parentAt].name < name { parentAt += 1 }
                if parentAt < inherited.count && inherited[parentAt].name == name { continue }
                try addProperty(archive, ref, named: name, to: &r.declaration, details: &r.details)
            }
            return (declaration: r.declaration, details: r.details)
        }
        var details: [String: CoreDataEntityDetails] = [:]
        details.reserveCapacity(decoded.count)
        for d in decoded { details[d.declaration.name] = d.details }
        do {
            return CoreDataModel(model: try ManagedObjectModel(entities: decoded.map(\.declaration)), details: details)
        } catch {
            throw archive.fail("the recovered model is not valid: \(error)")
        }
    }

    /// An entity's own fields, and all its archived properties (inherited ones repeated)
    /// sorted by name, not yet decoded.
    private struct ReadEntity: Sendable {
        var declaration: EntityDescription
        var details: CoreDataEntityDetails
        let properties: [(name: String, ref: PlistValue)]
    }

    private static func readEntity(_ archive: KeyedArchive, named name: String, _ ref: PlistValue) throws(StoreError) -> ReadEntity {
        let entity = try archive.resolve(ref)
        let o = try archive.object(entity)
        var e = EntityDescription(name: name)
        let parent = try archive.field(o, "NSSuperentity")
        if parent != .null { e.parent = try archive.string(try archive.field(parent, "NSEntityName")) }
        e.isAbstract = try archive.field(o, "NSIsAbstract").bool ?? false
        e.renamingIdentifier = try renaming(archive, o, name)
        e.uniquenessConstraints = try nameLists(archive, try archive.field(o, "NSUniqueTuples"))
        e.indexes = try fetchIndexes(archive, entity)
        // The compiled model mirrors each fetch index as a compound index: keep the others.
        e.indexes += try nameLists(archive, try archive.field(o, "NSCompoundIndexes"))
            .filter { list in !e.indexes.contains { $0.attributes == list } }
            .map { IndexDescription(name: "compound_" + $0.joined(separator: "_"), attributes: $0) }
        for (key, value) in try archive.entries(try archive.field(o, "NSUserInfo")) {
            e.userInfo[key] = try archive.string(value) ?? ""
        }
        var d = CoreDataEntityDetails()
        d.className = try archive.string(try archive.field(o, "NSClassNameForEntity"))
        d.versionHashModifier = try archive.string(try archive.field(o, "NSVersionHashModifier"))
        var properties = try archive.entries(try archive.field(o, "NSProperties")).map { (name: $0.key, ref: $0.value) }
        properties.sort { $0.name < $1.name }
        // A name archived twice keeps its last entry, as a dictionary would.
        var unique: [(name: String, ref: PlistValue)] = []
        unique.reserveCapacity(properties.count)
        for p in properties {
            if unique.last?.name == p.name { unique[unique.count - 1] = p } else { unique.append(p) }
        }
        return ReadEntity(declaration: e, details: d, properties: unique)
    }

    /// `NSDeleteRule`'s codes.
    private static let deleteRules: [(code: Int64, rule: DeleteRule)] = [(0, .noAction), (1, .nullify), (2, .cascade), (3, .deny)]

    /// Core Data stores the property's own name when no renaming identifier was set.
    private static func renaming(_ archive: KeyedArchive, _ object: ArchivedObject, _ name: String) throws(StoreError) -> String? {
        let id = try archive.string(try archive.field(object, "NSRenamingIdentifier"))
        return id == name ? nil : id
    }

    /// `NSFetchIndexDescriptions`: named indexes over properties (elements that are
    /// expressions, without a property, cannot be represented and are skipped, as the Xcode
    /// reader does).
    private static func fetchIndexes(_ archive: KeyedArchive, _ entity: PlistValue) throws(StoreError) -> [IndexDescription] {
        var indexes: [IndexDescription] = []
        for index in try archive.elements(try archive.field(entity, "NSFetchIndexDescriptions")) {
            let name = try archive.string(try archive.field(index, "NSIndexName")) ?? ""
            var attributes: [String] = []
            for element in try archive.elements(try archive.field(index, "NSIndexElements")) {
                let property = try archive.field(element, "NSPropertyName")
                let described = try archive.string(try archive.field(property, "NSPropertyName"))
                if let s = try archive.string(property) ?? described { attributes.append(s) }
            }
            if attributes.isEmpty { continue }
            indexes.append(IndexDescription(name: name.isEmpty ? "index_" + attributes.joined(separator: "_") : name, attributes: attributes))
        }
        return indexes
    }

    /// Arrays of property names (or of property descriptions), as in unique tuples and indexes.
    private static func nameLists(_ archive: KeyedArchive, _ value: PlistValue) throws(StoreError) -> [[String]] {
        try archive.elements(value).map { list throws(StoreError) in
            try archive.elements(list).map { item throws(StoreError) in
                if let s = try archive.string(item) { return s }
                guard let s = try archive.string(try archive.field(item, "NSPropertyName")) else {
                    throw archive.fail("a constraint or index element is \(try archive.describe(item))")
                }
                return s
            }
        }
    }

    private static func addProperty(_ archive: KeyedArchive, _ ref: PlistValue, named name: String,
                                    to e: inout EntityDescription, details: inout CoreDataEntityDetails) throws(StoreError) {
        let p = try archive.resolve(ref)
        let o = try archive.object(p)
        let flags = try archive.field(o, "_P").integer ?? 0
        let optionalKey = try archive.field(o, "NSIsOptional").bool ?? false
        let transientKey = try archive.field(o, "NSIsTransient").bool ?? false
        let isOptional = flags & 0x2 != 0 || optionalKey
        let isTransient = flags & 0x8 != 0 || transientKey
        var d = CoreDataPropertyDetails()
        d.isReadOnly = flags & 0x4 != 0
        d.versionHashModifier = try archive.string(try archive.field(o, "NSVersionHashModifier"))
        let renamingIdentifier = try renaming(archive, o, name)
        let className = try archive.className(of: o)
        switch className {
        case "NSAttributeDescription"?, "NSDerivedAttributeDescription"?, "NSCompositeAttributeDescription"?:
            let code = Int32(truncatingIfNeeded: try archive.field(o, "NSAttributeType").integer ?? 0)
            if code == CoreDataAttributeCodes.composite || className == "NSCompositeAttributeDescription" {
                e.attributes.append(.composite(name, try compositeElements(archive, p, path: "\(e.name).\(name)"),
                                               optional: isOptional, renamingIdentifier: renamingIdentifier))
                d.attributeTypeCode = CoreDataAttributeCodes.composite
                details.properties[name] = d
                return
            }
            guard let type = CoreDataAttributeCodes.type(code) else {
                throw archive.fail("\(e.name).\(name) is of unknown attribute type \(code)")
            }
            let storeFlags = try archive.field(o, "NSFlagsKey").integer ?? 0
            d.attributeTypeCode = code
            d.allowsExternalStorage = storeFlags & 0x4 != 0
            d.valueTransformerName = try archive.string(try archive.field(o, "NSValueTransformerName"))
            d.attributeValueClassName = try archive.string(try archive.field(o, "NSAttributeValueClassName"))
            d.derivationExpression = try derivation(archive, o)
            e.attributes.append(AttributeDescription(
                name: name, type: type, isOptional: isOptional, isTransient: isTransient,
                defaultValue: try defaultValue(archive, try archive.field(o, "NSDefaultValue"), type: type),
                isIndexed: try archive.field(o, "NSIsIndexed").bool ?? false,
                preservesValueInHistoryOnDeletion: storeFlags & 0x10 != 0,
                renamingIdentifier: renamingIdentifier))
        case "NSRelationshipDescription"?:
            let maxCount = Int(try archive.field(o, "NSMaxCount").integer ?? 0)
            let minCount = Int(try archive.field(o, "NSMinCount").integer ?? 0)
            let isToMany = maxCount != 1
            let destinationName = try archive.string(try archive.field(o, "_NSDestinationEntityName"))
            let destinationEntity = try archive.string(try archive.field(try archive.field(o, "NSDestinationEntity"), "NSEntityName"))
            let destination = destinationName ?? destinationEntity ?? ""
            let orderedKey = try archive.field(o, "NSIsOrdered").bool ?? false
            let ruleCode = try archive.field(o, "NSDeleteRule").integer ?? 1
            guard let rule = deleteRules.first(where: { $0.code == ruleCode })?.rule else { throw archive.fail("\(e.name).\(name) has delete rule \(ruleCode)") }
            e.relationships.append(RelationshipDescription(
                name: name, destination: destination,
                inverse: try archive.string(try archive.field(o, "_NSInverseRelationshipName")) ?? "",
                isToMany: isToMany,
                isOrdered: flags & 0x400 != 0 || orderedKey,
                isOptional: isOptional,
                // As the Xcode reader: counts only on to-many, 0 meaning no limit.
                minCount: isToMany && minCount > 0 ? minCount : nil,
                maxCount: isToMany && maxCount > 0 ? maxCount : nil,
                deleteRule: rule, isTransient: isTransient, renamingIdentifier: renamingIdentifier))
        case let other:
            // Fetched properties and anything else: not part of Vellum's model.
            if other == "NSFetchedPropertyDescription" { return }
            throw archive.fail("\(e.name).\(name) is \(try archive.describe(p))")
        }
        details.properties[name] = d
    }

    /// A composite attribute's elements. No store at hand holds a composite, so the key
    /// is not known for sure: `NSElements` and its likely spellings first, then any field
    /// holding a list of attribute descriptions. Elements are decoded as attributes
    /// (nested composites too); anything else in the list is refused.
    private static func compositeElements(_ archive: KeyedArchive, _ p: PlistValue, path: String) throws(StoreError) -> [AttributeDescription] {
        let fields = try archive.resolve(p).dictionary ?? [:]
        func isAttribute(_ ref: PlistValue) throws(StoreError) -> Bool {
            try archive.className(ref)?.hasSuffix("AttributeDescription") == true
        }
        var list: [PlistValue]?
        for key in ["NSElements", "NSCompositeElements", "_elements", "elements"] where fields[key] != nil {
            list = try archive.elements(try archive.field(p, key))
            break
        }
        if list == nil {
            for key in fields.keys.sorted() where !key.hasPrefix("$") {
                guard let items = try? archive.elements(try archive.field(p, key)), !items.isEmpty else { continue }
                var all = true
                for item in items where !(try isAttribute(item)) { all = false; break }
                if all { list = items; break }
            }
        }
        guard let list else {
            // A composite without elements archives none: an empty composite.
            return []
        }
        var scratch = EntityDescription(name: path)
        var details = CoreDataEntityDetails()
        for item in list {
            guard try isAttribute(item), let name = try archive.string(try archive.field(item, "NSPropertyName")) else {
                throw archive.fail("composite \(path) holds \(try archive.describe(item)), not an attribute")
            }
            try addProperty(archive, item, named: name, to: &scratch, details: &details)
        }
        return scratch.attributes
    }

    /// A derived attribute's expression text, as the hash uses it.
    private static func derivation(_ archive: KeyedArchive, _ p: ArchivedObject) throws(StoreError) -> String? {
        let expression = try archive.field(p, "NSDerivationExpression")
        if expression == .null { return nil }
        if let s = try archive.string(expression) { return s }
        // An archived NSExpression: its format string when present.
        for key in ["NSExpressionFormat", "NSFormat", "NSDescription"] {
            if let s = try archive.string(try archive.field(expression, key)) { return s }
        }
        return try archive.describe(expression)
    }

    /// `NSDefaultValue` as a Vellum value of the attribute's type.
    static func defaultValue(_ archive: KeyedArchive, _ value: PlistValue, type: AttributeType) throws(StoreError) -> Value? {
        var path: Set<UInt64> = []
        let v = try archive.decoded(value, path: &path)
        switch (type, v) {
        case (_, .null): return nil
        case (.integer16, _), (.integer32, _), (.integer64, _): return v.integer.map(Value.integer)
        case (.boolean, _): return v.integer.map { .bool($0 != 0) }
        case (.double, .real(let d)), (.float, .real(let d)): return .double(d)
        case (.double, _), (.float, _): return v.integer.map { .double(Double($0)) }
        case (.decimal, .real(let d)): return .decimal(Decimal(d))
        case (.decimal, _): return v.integer.map { .decimal(Decimal($0)) }
        case (.string, .string(let s)), (.undefined, .string(let s)): return .string(s)
        case (.date, .date(let t)): return .date(Date(timeIntervalSinceReferenceDate: t))
        case (.uuid, .data(let d)) where d.count == 16:
            return .uuid(d.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) })
        case (.uri, .string(let s)): return URL(string: s).map(Value.uri)
        default: return nil
        }
    }
}
