import Foundation

/// Why a model was refused. Each case names the entity and property at fault.
public enum ModelError: Error, Sendable, Hashable, CustomStringConvertible {
    case duplicateEntity(String)
    case duplicateProperty(entity: String, property: String)
    case unknownParent(entity: String, parent: String)
    case inheritanceCycle(entity: String)
    case unknownType(entity: String, property: String, type: String)
    case undefinedTypeNotTransient(entity: String, property: String)
    case missingDestination(entity: String, relationship: String, destination: String)
    case missingInverse(entity: String, relationship: String)
    case inverseMismatch(entity: String, relationship: String, detail: String)
    case constraintOnMissingAttribute(entity: String, attribute: String)
    case indexOnMissingAttribute(entity: String, index: String, attribute: String)
    case invalidDefault(entity: String, property: String, detail: String)
    case invalidRegex(entity: String, property: String, pattern: String)
    case invalidName(entity: String, property: String?, detail: String)
    case parse(file: String, detail: String)

    public var description: String {
        switch self {
        case .duplicateEntity(let e): return "entity \(e) is declared twice"
        case .duplicateProperty(let e, let p): return "\(e).\(p): property declared twice (or clashes with an inherited one)"
        case .unknownParent(let e, let p): return "entity \(e): parent entity \(p) does not exist"
        case .inheritanceCycle(let e): return "entity \(e): inheritance cycle"
        case .unknownType(let e, let p, let t): return "\(e).\(p): unknown attribute type '\(t)'"
        case .undefinedTypeNotTransient(let e, let p): return "\(e).\(p): an attribute without a type must be transient"
        case .missingDestination(let e, let r, let d): return "\(e).\(r): destination entity \(d) does not exist"
        case .missingInverse(let e, let r): return "\(e).\(r): relationship has no inverse (every relationship needs one)"
        case .inverseMismatch(let e, let r, let detail): return "\(e).\(r): \(detail)"
        case .constraintOnMissingAttribute(let e, let a): return "entity \(e): uniqueness constraint names missing attribute \(a)"
        case .indexOnMissingAttribute(let e, let i, let a): return "entity \(e): index \(i) names missing attribute \(a)"
        case .invalidDefault(let e, let p, let d): return "\(e).\(p): invalid default value: \(d)"
        case .invalidRegex(let e, let p, let pattern): return "\(e).\(p): invalid regular expression \(pattern)"
        case .invalidName(let e, let p, let d): return p.map { "\(e).\($0): \(d)" } ?? "entity \(e): \(d)"
        case .parse(let f, let d): return "\(f): \(d)"
        }
    }
}
