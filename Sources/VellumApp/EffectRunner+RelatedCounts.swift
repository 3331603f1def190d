import VellumStore

/// The to-many counts of the selected record, counted once when it is selected and
/// again only after a change event dropped them (`RelatedCounts`).
extension EffectRunner {
    func countRelatedOfSelection() {
        guard let id = selectedID, !relatedCounts.has(id), let entity = container.model.entity(named: id.entityName) else { return }
        let toMany = entity.relationships.filter(\.isToMany)
        guard !toMany.isEmpty, let object = currentObject() else { return }
        var counts: [String: Int] = [:]
        var failures: [String: String] = [:]
        for r in toMany {
            // A failed count is kept with its reason (shown in its place), not retried every frame.
            do { counts[r.name] = try Self.relatedCount(object, r) } catch { failures[r.name] = describe(error) }
        }
        relatedCounts.set(id, counts, failures: failures)
    }

    /// How many objects a to-many relationship holds, by a COUNT over its inverse
    /// (the same membership a followed relationship lists), never loading them.
    static func relatedCount(_ object: ManagedObject, _ rel: RelationshipDescription) throws -> Int {
        guard let context = object.context else { return 0 }
        guard object.objectID.primaryKey != nil, !object.hasChanges else {
            // Unsaved or changed here: the context holds the answer.
            return try object.toMany(rel.name).count
        }
        return try context.count(FetchRequest(entityName: rel.destination, predicate: membership(of: object, in: rel)))
    }
}
