import Foundation

/// The comparable kind of an operand, for type checking.
enum OperandKind: Equatable, CustomStringConvertible {
    case string, number, date, binary, uuid, uri
    /// A relationship's destination (compares with nil, primary keys, object-ID URIs and SELF).
    case object(String)
    /// `SELF` (compares with integer primary keys and object-ID URIs).
    case selfID
    case null
    /// A variable or an undefined attribute: checked when its value is known.
    case unknown

    var description: String {
        switch self {
        case .string: return "string"
        case .number: return "number"
        case .date: return "date"
        case .binary: return "binary"
        case .uuid: return "UUID"
        case .uri: return "URI"
        case .object(let e): return "\(e) object"
        case .selfID: return "SELF"
        case .null: return "nil"
        case .unknown: return "unknown"
        }
    }

    init(_ type: AttributeType) {
        switch type {
        case .string, .transformable: self = .string
        case .integer16, .integer32, .integer64, .double, .float, .decimal, .boolean: self = .number
        case .date: self = .date
        case .binary: self = .binary
        case .uuid: self = .uuid
        case .uri: self = .uri
        case .undefined, .composite: self = .unknown
        }
    }

    init(_ value: Value) {
        switch value {
        case .null: self = .null
        case .integer, .double, .decimal, .bool: self = .number
        case .string: self = .string
        case .date: self = .date
        case .data: self = .binary
        case .uuid: self = .uuid
        case .uri: self = .uri
        }
    }

    var isObject: Bool { if case .object = self { return true } else { return false } }

    /// Whether values of the two kinds can be compared.
    func isCompatible(with other: OperandKind) -> Bool {
        switch (self, other) {
        case (.null, _), (_, .null), (.unknown, _), (_, .unknown): return true
        case (.selfID, .number), (.number, .selfID), (.selfID, .uri), (.uri, .selfID), (.selfID, .selfID): return true
        case (.object, .number), (.number, .object), (.object, .uri), (.uri, .object), (.object, .selfID), (.selfID, .object): return true
        case (.object, _), (_, .object): return false
        default: return self == other
        }
    }
}

/// One relationship crossed by a key path.
struct RelationshipStep {
    let source: Entity
    let index: Int
    var relationship: RelationshipDescription { source.relationships[index] }
}

/// A key path resolved against the model.
struct ResolvedKeyPath {
    /// The relationships crossed, in order.
    var steps: [RelationshipStep]
    /// The final attribute's entity and index; nil when the path ends at a relationship.
    var attribute: (entity: Entity, index: Int)?
    /// The entity the path ends in (the attribute's owner or the last destination).
    var finalEntity: Entity

    var attributeDescription: AttributeDescription? { attribute.map { $0.entity.attributes[$0.index] } }
    var toManyCount: Int { steps.filter { $0.relationship.isToMany }.count }
    var toManyIndex: Int? { steps.firstIndex { $0.relationship.isToMany } }

    var kind: OperandKind {
        if let a = attributeDescription { return OperandKind(a.type) }
        return .object(finalEntity.name)
    }

    static func resolve(_ path: [String], from entity: Entity, model: ManagedObjectModel) throws(QueryError) -> ResolvedKeyPath {
        var current = entity
        var steps: [RelationshipStep] = []
        var n = 0
        while n < path.count {
            var key = path[n]
            // A composite's keys name one leaf attribute: `magnitude.richter`.
            if let leaf = current.compositeLeaf(path[n...]) {
                key = current.attributeNames[leaf.index]
                n += leaf.length - 1
            }
            let isLast = n == path.count - 1
            if let i = current.attributeIndexByName[key] {
                guard isLast else {
                    throw QueryError("'\(key)' of \(current.name) is an attribute, not a relationship: cannot follow '.\(path[n + 1])' in '\(path.joined(separator: "."))'")
                }
                return ResolvedKeyPath(steps: steps, attribute: (current, i), finalEntity: current)
            }
            if let reason = current.compositeWithoutElement(key, next: isLast ? nil : path[n + 1]) {
                throw QueryError(reason + " (in '\(path.joined(separator: "."))')")
            }
            guard let r = current.relationshipIndexByName[key] else {
                throw QueryError("\(current.name) has no property '\(key)'" + (path.count > 1 ? " (in '\(path.joined(separator: "."))')" : ""))
            }
            let rel = current.relationships[r]
            steps.append(RelationshipStep(source: current, index: r))
            guard let destination = model.entity(named: rel.destination) else {
                throw QueryError("relationship '\(key)' of \(current.name) has no destination entity '\(rel.destination)'")
            }
            current = destination
            n += 1
        }
        return ResolvedKeyPath(steps: steps, attribute: nil, finalEntity: current)
    }
}
