import VellumStore

/// The to-many counts of the selected record and of the rows on screen, counted
/// once and again only after a change event dropped them (`RelatedCounts`).
extension EffectRunner {
    func countRelatedOfSelection() {
        // Looked up by ID first: loading the row is needed only when something is to be counted.
        guard let id = selectedID, !relatedCounts.has(id),
              container.model.entity(named: id.entityName)?.relationships.contains(where: \.isToMany) == true,
              let object = currentObject() else { return }
        countRelated(of: object)
    }

    /// Counts the to-many columns of the rows `lines` shows that are not counted yet
    /// (called before a frame is built, so the frame itself runs no query for them).
    func countRelatedOfRows(_ lines: [TableLine]) {
        guard let rows, state.relationshipColumns.values.contains(where: \.isToMany) else { return }
        for case .row(let index) in lines {
            guard let id = rows.id(at: index), !relatedCounts.has(id), let object = try? rows.object(at: index) else { continue }
            countRelated(of: object)
        }
    }

    /// Callers check `relatedCounts.has` first, before loading the object.
    private func countRelated(of object: ManagedObject) {
        let id = object.objectID
        let toMany = object.entity.relationships.filter(\.isToMany)
        guard !toMany.isEmpty else { return }
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

    /// `object` named as the user chose for its entity (`:display`), for statuses and the picker.
    func displayName(_ object: ManagedObject) -> String {
        DisplayName.of(object, key: state.displayKey(of: object.entity.name))
    }
}
