import Foundation

extension NativeLayout {
    /// A many-to-many join table and the root tables and to-many relationships
    /// its two key columns stand for.
    public struct JoinTable: Sendable, Hashable {
        public var table: String
        /// Root table of the `source` column's rows, and their to-many through this table.
        public var sourceTable: String
        public var sourceRelationship: String
        /// Root table of the `target` column's rows, and their to-many through this table.
        public var targetTable: String
        public var targetRelationship: String
    }

    /// Every join table of the model, once each, sorted by name.
    public var joinTables: [JoinTable] {
        var byName: [String: JoinTable] = [:]
        for name in model.entityNames {
            guard let m = mapping(for: name) else { continue }
            for (i, storage) in m.relationshipStorage.enumerated() {
                guard case .joinTable(let table, "source", _, _) = storage, byName[table] == nil,
                      let destination = model.entity(named: m.entity.relationships[i].destination) else { continue }
                let r = m.entity.relationships[i]
                byName[table] = JoinTable(table: table, sourceTable: m.entity.rootName, sourceRelationship: r.name,
                                          targetTable: destination.rootName, targetRelationship: r.inverse)
            }
        }
        return byName.keys.sorted().map { byName[$0]! }
    }
}
