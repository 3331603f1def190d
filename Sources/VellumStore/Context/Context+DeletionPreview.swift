extension ManagedObjectContext {
    /// What deleting `ids` would do, counted without deleting anything: the closure of
    /// cascade rules from those objects, and the deny rules that would refuse the save
    /// (a deny relationship still holding an object outside that closure). Unsaved
    /// changes in this context count, as they would at `save()`.
    ///
    /// Cost: one fault per object reached, plus one query per cascade or deny to-many
    /// of each — what `delete` itself would load.
    public func deletionPreview(of ids: [ObjectID]) throws(StoreError) -> DeletionPreview {
        try StoreError.nesting { try previewDeletion(of: ids) }
    }

    private func previewDeletion(of ids: [ObjectID]) throws -> DeletionPreview {
        var preview = DeletionPreview()
        var reached = Set<ObjectIdentifier>(), closure: [ManagedObject] = []
        func reach(_ object: ManagedObject, cascaded: Bool) {
            guard reached.insert(ObjectIdentifier(object)).inserted else { return }
            closure.append(object)
            preview.deleted[object.entity.name, default: 0] += 1
            if cascaded { preview.cascaded[object.entity.name, default: 0] += 1 }
        }
        for id in ids {
            do {
                let object = try existingObject(with: id)
                if object.isDeleted || object.isMissing { preview.missing += 1 } else { reach(object, cascaded: false) }
            } catch StoreError.objectNotFound {
                preview.missing += 1
            }
        }
        // Breadth first: `closure` grows while it is walked.
        var next = 0
        while next < closure.count {
            let object = closure[next]
            next += 1
            for (i, relationship) in object.entity.relationships.enumerated() where relationship.deleteRule == .cascade {
                for destination in try relation(of: object, at: i).current where !destination.isDeleted && !destination.isMissing {
                    reach(destination, cascaded: true)
                }
            }
        }
        // Deny is judged on the whole closure: an object deleted by the same cascade holds nothing back.
        var denialIndex: [String: Int] = [:]
        for object in closure {
            for (i, relationship) in object.entity.relationships.enumerated() where relationship.deleteRule == .deny {
                // As at save: a dangling to-one (its target's row is missing) holds nothing back.
                let held = try relation(of: object, at: i).current.filter {
                    !$0.isDeleted && !reached.contains(ObjectIdentifier($0)) && (relationship.isToMany || !$0.isMissing)
                }
                guard !held.isEmpty else { continue }
                let key = object.entity.name + "." + relationship.name
                if let at = denialIndex[key] {
                    preview.denials[at].objects += 1
                    preview.denials[at].related += held.count
                } else {
                    denialIndex[key] = preview.denials.count
                    preview.denials.append(.init(entity: object.entity.name, relationship: relationship.name, objects: 1, related: held.count))
                }
            }
        }
        return preview
    }
}
