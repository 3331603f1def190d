import Foundation

extension NativeLayout {
    /// Every join table of the model, once each, sorted by name; its `source`
    /// column belongs to the side whose (entity, relationship) names it.
    static func joinTables(model: ManagedObjectModel, mappings: [String: EntityMapping]) -> [JoinTable] {
        var byName: [String: JoinTable] = [:]
        for name in model.entityNames {
            guard let m = mappings[name] else { continue }
            for (i, storage) in m.relationshipStorage.enumerated() {
                guard case .joinTable(let table, "source", let target, _) = storage, byName[table] == nil,
                      let destination = model.entity(named: m.entity.relationships[i].destination) else { continue }
                let r = m.entity.relationships[i]
                byName[table] = JoinTable(table: table, sourceColumn: "source", sourceTable: m.table, sourceRelationship: r.name,
                                          targetColumn: target, targetTable: mappings[destination.name]?.table ?? destination.rootName,
                                          targetRelationship: r.inverse)
            }
        }
        return byName.keys.sorted().map { byName[$0]! }
    }
}
