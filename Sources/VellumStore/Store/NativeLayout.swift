import Foundation

/// Vellum's own layout, readable in the `sqlite3` shell: a table per root entity
/// named after it; `_pk`, `_entity`, `_version`, then a column per attribute
/// named after it; to-one foreign keys named after the relationship; join
/// tables `<Entity>_<relationship>` for many-to-many.
public final class NativeLayout: StoreLayout {
    public let model: ManagedObjectModel
    private let mappings: [String: EntityMapping]
    public let primaryKeyColumn = "_pk"
    public let entityColumn = "_entity"
    public let versionColumn = "_version"
    public let dialect: any SQLDialect = SQLiteDialect()
    public let joinTables: [JoinTable]
    private let joinTablesByName: [String: JoinTable]

    public init(model: ManagedObjectModel) {
        self.model = model
        var mappings: [String: EntityMapping] = [:]
        for root in model.rootEntities {
            // Columns are shared down the hierarchy; a sibling redeclaring a name gets a suffix.
            let attributeColumnByOwner = NativeLayoutNames(model: model, root: root.name).columns  // "Owner.property" → column
            for name in root.hierarchyNames {
                let entity = model.entity(named: name)!
                let columns = entity.attributes.indices.map { i in
                    let a = entity.attributes[i]
                    return a.isTransient ? nil : attributeColumnByOwner["\(entity.attributeDeclaringEntities[i]).\(a.name)"]
                }
                let storage = entity.relationships.indices.map { i -> RelationshipStorage in
                    let r = entity.relationships[i]
                    let declaring = entity.relationshipDeclaringEntities[i]
                    let destination = model.entity(named: r.destination)!
                    let inverse = destination.relationship(named: r.inverse)!
                    if !r.isToMany && Self.ownsForeignKey(r, of: model.entity(named: declaring)!, model: model) {
                        return .foreignKey(column: attributeColumnByOwner["\(declaring).\(r.name)"]!)
                    }
                    if !inverse.isToMany {
                        // The destination row holds the key.
                        let inverseOwner = (destination.ancestorNames + [destination.name]).first {
                            model.entity(named: $0)!.declaration.relationships.contains { $0.name == r.inverse }
                        }!
                        return .inverseForeignKey(table: destination.rootName, column: Self.foreignKeyColumnName(r.inverse, declaredBy: inverseOwner, model: model),
                                                  positionColumn: r.isOrdered ? "\(r.inverse)_position" : nil)
                    }
                    let (table, canonicalSide) = Self.joinTableName(entity: declaring, relationship: r, inverseOwner: inverseDeclaring(destination, r.inverse, model))
                    return .joinTable(table: table, sourceColumn: canonicalSide ? "source" : "target",
                                      targetColumn: canonicalSide ? "target" : "source",
                                      positionColumn: r.isOrdered ? (canonicalSide ? "target_position" : "source_position") : nil)
                }
                mappings[name] = EntityMapping(entity: entity, table: root.name, attributeColumns: columns, relationshipStorage: storage)
            }
        }
        self.mappings = mappings
        joinTables = Self.joinTables(model: model, mappings: mappings)
        joinTablesByName = Dictionary(uniqueKeysWithValues: joinTables.map { ($0.table, $0) })
    }

    public func mapping(for entityName: String) -> EntityMapping? { mappings[entityName] }

    public func joinTable(named table: String) -> JoinTable? { joinTablesByName[table] }

    /// Past both the AUTOINCREMENT counter and the largest row.
    public func largestKeyEverSQL(table: String) -> String {
        "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), coalesce((SELECT max(\(quoteIdentifier(primaryKeyColumn))) FROM \(quoteIdentifier(table))), 0))"
    }

    /// A to-one owns the foreign key unless its inverse is also to-one and sorts first.
    static func ownsForeignKey(_ r: RelationshipDescription, of entity: Entity, model: ManagedObjectModel) -> Bool {
        guard !r.isToMany else { return false }
        guard let destination = model.entity(named: r.destination), let inverse = destination.relationship(named: r.inverse) else { return false }
        if inverse.isToMany { return true }
        return (entity.name, r.name) <= (inverseDeclaring(destination, r.inverse, model), inverse.name)
    }

    private static func foreignKeyColumnName(_ relationship: String, declaredBy owner: String, model: ManagedObjectModel) -> String {
        // Recompute the same naming as the column pass (collisions are rare; keep in one place).
        let layout = NativeLayoutNames(model: model, root: model.entity(named: owner)!.rootName)
        return layout.columns["\(owner).\(relationship)"] ?? relationship
    }

    /// The join table is named after the side whose (entity, relationship) sorts first.
    static func joinTableName(entity: String, relationship r: RelationshipDescription, inverseOwner: String) -> (String, Bool) {
        if (entity, r.name) <= (inverseOwner, r.inverse) { return ("\(entity)_\(r.name)", true) }
        return ("\(inverseOwner)_\(r.inverse)", false)
    }

    public func schemaSQL() -> [String] {
        var sql: [String] = []
        var joinTables: [String: String] = [:]
        for root in model.rootEntities {
            var columns = ["\"_pk\" INTEGER PRIMARY KEY AUTOINCREMENT", "\"_entity\" TEXT NOT NULL", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
            var indexes: [String] = ["CREATE INDEX \(quoteIdentifier("\(root.name)__entity")) ON \(quoteIdentifier(root.name)) (\"_entity\")"]
            var seen: Set<String> = []
            var positionColumns: Set<String> = []
            for name in root.hierarchyNames {
                let m = mappings[name]!
                for (i, a) in m.entity.attributes.enumerated() {
                    guard let column = m.attributeColumns[i], seen.insert(column).inserted else { continue }
                    columns.append("\(quoteIdentifier(column)) \(a.type.sqlType)")
                    if a.isIndexed {
                        indexes.append("CREATE INDEX \(quoteIdentifier("\(root.name)_\(column)")) ON \(quoteIdentifier(root.name)) (\(quoteIdentifier(column)))")
                    }
                }
                for (i, r) in m.entity.relationships.enumerated() {
                    switch m.relationshipStorage[i] {
                    case .foreignKey(let column):
                        guard seen.insert(column).inserted else { continue }
                        let target = model.entity(named: r.destination)!.rootName
                        columns.append("\(quoteIdentifier(column)) INTEGER REFERENCES \(quoteIdentifier(target))(\"_pk\") ON DELETE SET NULL DEFERRABLE INITIALLY DEFERRED")
                        indexes.append("CREATE INDEX \(quoteIdentifier("\(root.name)_\(column)")) ON \(quoteIdentifier(root.name)) (\(quoteIdentifier(column)))")
                    case .inverseForeignKey(let table, _, let position?):
                        positionColumns.insert("\(table)\u{0}\(position)")
                    case .joinTable(let table, let source, let target, _):
                        guard source == "source", joinTables[table] == nil else { continue }
                        let destinationRoot = model.entity(named: r.destination)!.rootName
                        joinTables[table] = """
                        CREATE TABLE \(quoteIdentifier(table)) (\
                        "source" INTEGER NOT NULL REFERENCES \(quoteIdentifier(root.name))("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \
                        "target" INTEGER NOT NULL REFERENCES \(quoteIdentifier(destinationRoot))("_pk") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, \
                        "target_position" INTEGER, "source_position" INTEGER, PRIMARY KEY ("source", "target")) WITHOUT ROWID;
                        CREATE INDEX \(quoteIdentifier("\(table)_target")) ON \(quoteIdentifier(table)) ("target", "source")
                        """
                        _ = target
                    default: break
                    }
                }
                for (n, constraint) in m.entity.declaration.uniquenessConstraints.enumerated() {
                    let cols = constraint.map { a in quoteIdentifier(m.attributeColumns[m.entity.attributeIndexByName[a]!]!) }
                    let scope = m.entity.declaration.parent == nil ? "" :
                        " WHERE \"_entity\" IN (\(m.entity.hierarchyNames.map { $0.enclosed(in: "'") }.joined(separator: ", ")))"
                    indexes.append("CREATE UNIQUE INDEX \(quoteIdentifier("\(name)_unique_\(n)_\(constraint.joined(separator: "_"))")) ON \(quoteIdentifier(root.name)) (\(cols.joined(separator: ", ")))\(scope)")
                }
                for index in m.entity.declaration.indexes {
                    let cols = index.attributes.compactMap { a -> String? in
                        if let i = m.entity.attributeIndexByName[a] { return m.attributeColumns[i].map(quoteIdentifier) }
                        if let i = m.entity.relationshipIndexByName[a], case .foreignKey(let c) = m.relationshipStorage[i] { return quoteIdentifier(c) }
                        return nil
                    }
                    guard !cols.isEmpty else { continue }
                    indexes.append("CREATE INDEX \(quoteIdentifier("\(name)_\(index.name)")) ON \(quoteIdentifier(root.name)) (\(cols.joined(separator: ", ")))")
                }
            }
            sql.append("CREATE TABLE \(quoteIdentifier(root.name)) (\(columns.joined(separator: ", ")))")
            sql.append(contentsOf: indexes)
            _ = positionColumns
        }
        // Position columns of ordered one-to-many live on the destination table.
        var added: Set<String> = []
        for name in model.entityNames {
            let m = mappings[name]!
            for storage in m.relationshipStorage {
                if case .inverseForeignKey(let table, _, let position?) = storage, added.insert("\(table).\(position)").inserted {
                    sql.append("ALTER TABLE \(quoteIdentifier(table)) ADD COLUMN \(quoteIdentifier(position)) INTEGER")
                }
            }
        }
        sql.append(contentsOf: joinTables.keys.sorted().map { joinTables[$0]! })
        return sql
    }
}

private func inverseDeclaring(_ destination: Entity, _ inverse: String, _ model: ManagedObjectModel) -> String {
    (destination.ancestorNames + [destination.name]).first {
        model.entity(named: $0)!.declaration.relationships.contains { $0.name == inverse }
    } ?? destination.name
}

/// The column names of one root's table, computed the same way as `NativeLayout.init`.
private struct NativeLayoutNames {
    var columns: [String: String] = [:]
    init(model: ManagedObjectModel, root: String) {
        // Lowercased: SQL column names ignore case, so siblings' `name` and `Name` need two columns.
        var taken: Set<String> = ["_pk", "_entity", "_version"]
        for name in model.entity(named: root)!.hierarchyNames {
            let entity = model.entity(named: name)!
            for a in entity.declaration.leafAttributes where !a.isTransient {
                let column = taken.contains(a.name.lowercased()) ? "\(a.name)_\(entity.name)" : a.name
                taken.insert(column.lowercased())
                columns["\(entity.name).\(a.name)"] = column
            }
            for r in entity.declaration.relationships where NativeLayout.ownsForeignKey(r, of: entity, model: model) {
                let column = taken.contains(r.name.lowercased()) ? "\(r.name)_\(entity.name)" : r.name
                taken.insert(column.lowercased())
                columns["\(entity.name).\(r.name)"] = column
            }
        }
    }
}
