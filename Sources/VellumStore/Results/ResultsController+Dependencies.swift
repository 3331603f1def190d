import Foundation

extension ResultsController {
    /// Relationship chains from `entity` that the predicate or sort keys read through.
    static func chains(for request: FetchRequest, entity: Entity, model: ManagedObjectModel) -> [[RelationshipDescription]] {
        var paths: [[String]] = request.sortDescriptors.map(\.keyPath)
        func collect(_ e: Expression) {
            switch e {
            case .keyPath(let p): paths.append(p)
            case .aggregate(_, let collection, let attribute): paths.append(collection + attribute)
            case .list(let items): items.forEach(collect)
            default: break
            }
        }
        for c in request.predicate?.comparisons ?? [] { collect(c.lhs); collect(c.rhs) }
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
    func dependents(of object: ManagedObject) -> Set<ObjectID> {
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
                        if r.isToMany { next += (try? o.toMany(inverse)) ?? [] } else if let d = try? o.toOne(inverse) { next.append(d) }
                    }
                    frontier = next
                }
                for o in frontier where o.entity.rootName == rootName { result.insert(o.objectID) }
            }
        }
        return result
    }
}
