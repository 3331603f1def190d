import Foundation

extension ResultsController {
    /// Relationship chains from `entity` that the predicate or sort keys read through.
    static func chains(for request: FetchRequest, entity: Entity, model: ManagedObjectModel) -> [[RelationshipDescription]] {
        var paths: [[String]] = request.sortDescriptors.map(\.keyPath)
        /// `elements`: SUBQUERY variables and the key paths (from `entity`) their objects are reached by.
        func collect(_ e: QueryExpression, _ elements: [String: [String]]) {
            func rooted(_ p: [String]) -> [String] {
                guard let first = p.first, first.hasPrefix("$"), let prefix = elements[String(first.dropFirst())] else { return p }
                return prefix + p.dropFirst()
            }
            switch e {
            case .keyPath(let p): paths.append(rooted(p))
            case .aggregate(_, let collection, let attribute): paths.append(rooted(collection) + attribute)
            case .list(let items): items.forEach { collect($0, elements) }
            case .arithmetic(_, let a, let b): collect(a, elements); collect(b, elements)
            case .subqueryCount(let collection, let variable, let inner):
                paths.append(rooted(collection))
                var nested = elements
                nested[variable] = rooted(collection)
                for c in inner.comparisons { collect(c.lhs, nested); collect(c.rhs, nested) }
            default: break
            }
        }
        for c in request.predicate?.comparisons ?? [] { collect(c.lhs, [:]); collect(c.rhs, [:]) }
        var result: [[RelationshipDescription]] = []
        for path in paths {
            var chain: [RelationshipDescription] = []
            var current: Entity? = entity
            for key in path {
                guard let e = current, let r = e.relationship(named: key) else { break }
                chain.append(r)
                current = model.entity(named: r.destination)
            }
            if !chain.isEmpty && !result.contains(chain) { result.append(chain) }
        }
        return result
    }

    /// IDs of objects (of the fetched root) whose key paths run through `object`.
    func dependents(of object: ManagedObject) throws -> Set<ObjectID> {
        var result: Set<ObjectID> = []
        let model = context.model
        for chain in dependencyChains {
            for j in chain.indices.reversed() {
                guard let dest = model.entity(named: chain[j].destination), dest.hierarchyNames.contains(object.entity.name) else { continue }
                var frontier = [object]
                for k in stride(from: j, through: 0, by: -1) {
                    let inverse = chain[k].inverse
                    var next: [ManagedObject] = []
                    for o in frontier {
                        guard let r = o.entity.relationship(named: inverse) else { continue }
                        if r.isToMany { next += try o.toMany(inverse) } else if let d = try o.toOne(inverse) { next.append(d) }
                    }
                    frontier = next
                }
                for o in frontier where o.entity.rootName == rootName { result.insert(o.objectID) }
            }
        }
        return result
    }
}
