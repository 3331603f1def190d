import Foundation

/// Where a column of a new table gets its value for the rows of one entity,
/// in terms of the old row `s` (see `EntityCopy`).
enum ColumnSource: Equatable {
    /// The old column of the same row, unchanged.
    case column(String)
    case null
    /// A constant: a new attribute's default.
    case constant(Value)
    /// The old column, or the constant where it is NULL (optional → required with a default).
    case coalesce(String, Value)
    /// A SQL expression over `s` (relationship storage that moves).
    case expression(String)
    /// The old column converted row by row (`TypeChange.convert`); NULLs then take
    /// `orDefault` when given (the attribute became required).
    case converted(column: String, from: AttributeType, to: AttributeType, orDefault: Value?)
}

/// How the rows of one new entity are filled from its old entity's rows.
struct EntityCopy {
    var newEntity: String
    var oldEntity: String
    /// The old root table holding the old entity's rows.
    var oldTable: String
    /// New column → source.
    var columns: [(column: String, source: ColumnSource)]
}

/// Computes every column source of the new layout from the old one.
struct ColumnSources {
    let correspondence: ModelCorrespondence
    let oldLayout: any StoreLayout
    let newLayout: any StoreLayout
    /// New keys for rows whose keys are taken where they go (none on PostgreSQL, which refuses).
    var shifts = KeyShifts()

    /// The old root table of `entity`'s rows (what a reference to one of them points into).
    private func oldTable(of entity: String) -> String { oldLayout.mapping(for: entity)?.table ?? entity }

    /// The copies filling a new root table, one per new entity of its hierarchy with an old counterpart.
    func copies(intoRoot root: Entity) -> [EntityCopy] {
        // Ordered to-many positions held on this table, by the old table and column they come from.
        var positions: [String: (table: String, column: String)] = [:]
        for name in newLayout.model.entityNames {
            let m = newLayout.mapping(for: name)!
            for (i, storage) in m.relationshipStorage.enumerated() {
                guard case .inverseForeignKey(let table, _, let position?) = storage, table == root.name,
                      let or = correspondence.oldRelationship(entity: name, relationship: m.entity.relationships[i].name), or.isOrdered,
                      let o = correspondence.oldEntity(for: name), let om = oldLayout.mapping(for: o.name),
                      let oi = o.relationshipIndexByName[or.name],
                      case .inverseForeignKey(let oldTable, _, let oldPosition?) = om.relationshipStorage[oi] else { continue }
                positions[position] = (oldTable, oldPosition)
            }
        }
        return root.hierarchyNames.compactMap { name -> EntityCopy? in
            guard let o = correspondence.oldEntity(for: name), let om = oldLayout.mapping(for: o.name) else { return nil }
            let m = newLayout.mapping(for: name)!
            var columns: [(String, ColumnSource)] = []
            for (i, column) in m.attributeColumns.enumerated() {
                guard let column else { continue }
                columns.append((column, attributeSource(m.entity.attributes[i], entity: name, old: o, oldMapping: om)))
            }
            for (i, storage) in m.relationshipStorage.enumerated() {
                guard case .foreignKey(let column) = storage else { continue }
                columns.append((column, foreignKeySource(m.entity.relationships[i], entity: name, old: o, oldMapping: om)))
            }
            for (position, from) in positions.sorted(by: { $0.key < $1.key }) where from.table == om.table {
                columns.append((position, .column(from.column)))
            }
            return EntityCopy(newEntity: name, oldEntity: o.name, oldTable: om.table, columns: columns)
        }
    }

    private func attributeSource(_ a: AttributeDescription, entity: String, old: Entity, oldMapping om: EntityMapping) -> ColumnSource {
        let fallback: ColumnSource = a.defaultValue.map { .constant($0) } ?? .null
        guard let oa = correspondence.oldAttribute(entity: entity, attribute: a.name), !oa.isTransient,
              let oi = old.attributeIndexByName[oa.name], let oc = om.attributeColumns[oi] else { return fallback }
        switch TypeChange.of(oa.type, a.type) {
        case .identity:
            if !a.isOptional, oa.isOptional, let d = a.defaultValue { return .coalesce(oc, d) }
            return .column(oc)
        case .widening, .narrowing:
            return .converted(column: oc, from: oa.type, to: a.type, orDefault: a.isOptional ? nil : a.defaultValue)
        case .refused:
            return fallback
        }
    }

    private func foreignKeySource(_ r: RelationshipDescription, entity: String, old: Entity, oldMapping om: EntityMapping) -> ColumnSource {
        guard let or = correspondence.oldRelationship(entity: entity, relationship: r.name),
              let oi = old.relationshipIndexByName[or.name] else { return .null }
        let pk = quoteIdentifier(oldLayout.primaryKeyColumn)
        let target = oldTable(of: or.destination)
        switch om.relationshipStorage[oi] {
        case .foreignKey(let column):
            let shifted = shifts.shifted("s.\(quoteIdentifier(column))", oldTable: target)
            return shifts.offset(of: target) == 0 ? .column(column) : .expression(shifted)
        case .inverseForeignKey(let table, let column, _):
            return .expression(shifts.shifted("(SELECT d.\(pk) FROM \(quoteIdentifier(table)) d WHERE d.\(quoteIdentifier(column)) = s.\(pk) ORDER BY d.\(pk)\(oldLayout.dialect.limitOffset(limit: 1, offset: nil)))", oldTable: target))
        case .joinTable(let table, let source, let targetColumn, _):
            return .expression(shifts.shifted("(SELECT j.\(quoteIdentifier(targetColumn)) FROM \(quoteIdentifier(table)) j WHERE j.\(quoteIdentifier(source)) = s.\(pk) ORDER BY 1\(oldLayout.dialect.limitOffset(limit: 1, offset: nil)))", oldTable: target))
        }
    }

    /// The rows of a new join table from the old storage of the relationship it stands
    /// for: the new table's columns (keys, then the positions of the ordered sides) and
    /// a SELECT giving them; nil when the relationship is new.
    func joinRows(_ join: JoinTable) -> (columns: [String], select: String, identity: Bool)? {
        guard let (entity, r, newPosition) = declaring(join.sourceRelationship, join: join),
              let o = correspondence.oldEntity(for: entity.name),
              let or = correspondence.oldRelationship(entity: entity.name, relationship: r.name),
              let om = oldLayout.mapping(for: o.name), let oi = o.relationshipIndexByName[or.name] else { return nil }
        let newInversePosition = position(newLayout, entity: r.destination, relationship: r.inverse)
        let oldInversePosition = position(oldLayout, entity: or.destination, relationship: or.inverse)
        var columns = [join.sourceColumn, join.targetColumn]
        if let p = newPosition { columns.append(p) }
        if let p = newInversePosition { columns.append(p) }
        func positions(_ alias: String, own: String?, inverse: String?) -> String {
            var out = ""
            if newPosition != nil { out += ", " + (own.map { "\(alias).\(quoteIdentifier($0))" } ?? "NULL") }
            if newInversePosition != nil { out += ", " + (inverse.map { "\(alias).\(quoteIdentifier($0))" } ?? "NULL") }
            return out
        }
        let pk = quoteIdentifier(oldLayout.primaryKeyColumn)
        // The keys on each side, as migrated: the source's rows are in its old table, the targets' in theirs.
        func keys(_ source: String, _ target: String) -> String {
            shifts.shifted(source, oldTable: om.table) + ", " + shifts.shifted(target, oldTable: oldTable(of: or.destination))
        }
        let shifted = shifts.offset(of: om.table) != 0 || shifts.offset(of: oldTable(of: or.destination)) != 0
        switch om.relationshipStorage[oi] {
        case .joinTable(let table, let source, let target, let own):
            let select = "SELECT \(keys("j.\(quoteIdentifier(source))", "j.\(quoteIdentifier(target))"))\(positions("j", own: own, inverse: oldInversePosition)) FROM \(quoteIdentifier(table)) j"
            let same = !shifted && table == join.table && source == join.sourceColumn && own == newPosition && oldInversePosition == newInversePosition
            return (columns, select, same)
        case .inverseForeignKey(let table, let column, let own):
            let c = quoteIdentifier(column)
            return (columns, "SELECT \(keys("d.\(c)", "d.\(pk)"))\(positions("d", own: own, inverse: nil)) FROM \(quoteIdentifier(table)) d WHERE d.\(c) IS NOT NULL", false)
        case .foreignKey(let column):
            let c = quoteIdentifier(column)
            let kinds = o.hierarchyNames.map(SQLiteDialect().literal).joined(separator: ", ")
            return (columns, "SELECT \(keys("s.\(pk)", "s.\(c)"))\(positions("s", own: nil, inverse: nil)) FROM \(quoteIdentifier(om.table)) s WHERE s.\(c) IS NOT NULL AND s.\(quoteIdentifier(oldLayout.entityColumn)) IN (\(kinds))", false)
        }
    }

    /// The position column ordering `entity.relationship` in its join table, if it is ordered.
    private func position(_ layout: any StoreLayout, entity: String, relationship: String) -> String? {
        guard let m = layout.mapping(for: entity), let i = m.entity.relationshipIndexByName[relationship],
              case .joinTable(_, _, _, let p) = m.relationshipStorage[i] else { return nil }
        return p
    }

    /// The entity declaring `relationship` whose keys are `join`'s source column, and its position column.
    private func declaring(_ relationship: String, join: JoinTable) -> (Entity, RelationshipDescription, String?)? {
        for name in newLayout.model.entityNames {
            let m = newLayout.mapping(for: name)!
            guard let i = m.entity.relationshipIndexByName[relationship], m.entity.declaration.relationships.contains(where: { $0.name == relationship }),
                  case .joinTable(let t, let source, _, let p) = m.relationshipStorage[i], t == join.table, source == join.sourceColumn else { continue }
            return (m.entity, m.entity.relationships[i], p)
        }
        return nil
    }
}
