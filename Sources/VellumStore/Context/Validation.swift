import Foundation

/// Checks objects against the model's rules before a save touches the store.
struct Validator {
    unowned let context: ManagedObjectContext

    /// Every failure of every object (a save reports them all at once).
    func failures(for objects: [ManagedObject]) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        for o in objects {
            var uri: String { o.objectID.uriString }
            let rules = o.entity.validationRules
            // `storedValue(at:)`, not `values[i]`: the array getter copies the whole row per rule.
            for i in rules.attributes {
                let a = o.entity.attributes[i]
                if let reason = ValueRules.ruleViolation(ofCoerced: o.storedValue(at: i), for: a) {
                    failures.append(ValidationFailure(entity: o.entity.name, key: a.name, reason: reason, objectURI: uri))
                }
            }
            for i in rules.relationships {
                let r = o.entity.relationships[i]
                let count = try context.relation(of: o, at: i).current.filter { !$0.isDeleted }.count
                if !r.isOptional && count == 0 {
                    failures.append(ValidationFailure(entity: o.entity.name, key: r.name, reason: "is required", objectURI: uri))
                }
                if r.isToMany, let min = r.minCount, count < min, count > 0 || !r.isOptional {
                    failures.append(ValidationFailure(entity: o.entity.name, key: r.name, reason: "must have at least \(min) objects (has \(count))", objectURI: uri))
                }
                if r.isToMany, let max = r.maxCount, max > 0, count > max {
                    failures.append(ValidationFailure(entity: o.entity.name, key: r.name, reason: "must have at most \(max) objects (has \(count))", objectURI: uri))
                }
            }
        }
        return failures
    }

    /// Deny rules: a deleted object whose deny relationship still has (undeleted) objects.
    func denials(for deleted: [ManagedObject]) throws -> StoreError? {
        for o in deleted {
            for (i, r) in o.entity.relationships.enumerated() where r.deleteRule == .deny {
                // A dangling to-one (its target's row is missing) holds nothing back.
                let remaining = try context.relation(of: o, at: i).current.filter { !$0.isDeleted && (r.isToMany || !$0.isMissing) }
                if !remaining.isEmpty { return .deleteDenied(entity: o.entity.name, relationship: r.name, count: remaining.count) }
            }
        }
        return nil
    }
}
