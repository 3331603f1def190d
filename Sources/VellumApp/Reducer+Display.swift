import VellumStore

/// `:display KEY`: which attribute names an entity's records in to-one columns,
/// detail fields, the picker and statuses. Kept in that entity's column layout
/// (the user's state directory, never the store).
extension Reducer {
    /// The entity `:display` names: a relationship column's destination when the
    /// cursor is on one, else the open entity; with the attributes it can be named by.
    static func displayTarget(_ s: AppState) -> (entity: String, attributes: [String])? {
        if let r = s.cursorRelationshipColumn { return (r.destination, r.destinationAttributes) }
        guard let entity = s.currentEntityName else { return nil }
        return (entity, s.allColumnNames.filter { s.relationshipColumn($0) == nil })
    }

    @Sendable static func display(_ s: inout AppState, _ argument: String) -> [Effect] {
        guard let (entity, attributes) = displayTarget(s) else { s.setStatus("display: no list open", error: true); return [] }
        let key = argument.isEmpty ? nil : argument
        if let key, !attributes.contains(key) {
            s.setStatus("display: \(entity) has no attribute '\(key)' (it has \(attributes.joined(separator: ", ")))", error: true)
            return []
        }
        var layout = s.columnLayouts[entity] ?? ColumnLayout()
        layout.displayKey = key
        s.columnLayouts[entity] = layout
        s.setStatus(key.map { "\(entity) records are named by \($0)" } ?? "\(entity) records are named by name or title again")
        return [.saveColumnLayout(entity: entity, layout)]
    }
}
