import Foundation

/// The checks of one entity's changes against its stored rows: each counts the
/// rows that would not comply and names a few of their keys.
struct EntityProbe {
    let design: MigrationDesign
    let connection: Connection
    let new: Entity
    let old: Entity

    private var oldMapping: EntityMapping { design.oldLayout.mapping(for: old.name)! }
    private var table: String { quoteIdentifier(oldMapping.table) }
    private var pk: String { quoteIdentifier(design.oldLayout.primaryKeyColumn) }
    private var ofEntity: String { "\(quoteIdentifier(design.oldLayout.entityColumn)) = \(Self.literal(old.name))" }

    static func literal(_ s: String) -> String { SQLiteDialect().literal(s) }

    static func count(_ c: Connection, _ layout: any StoreLayout, entity: Entity) throws(StoreError) -> Int {
        let m = layout.mapping(for: entity.name)!
        // Alone in its table, every row is of this entity: SQLite counts the table without reading rows.
        if entity.hierarchyNames.count == 1 && entity.ancestorNames.isEmpty {
            return Int(try c.scalarInt("SELECT count(*) FROM \(quoteIdentifier(m.table))") ?? 0)
        }
        return Int(try c.scalarInt("SELECT count(*) FROM \(quoteIdentifier(m.table)) WHERE \(quoteIdentifier(layout.entityColumn)) = ?", [.string(entity.name)]) ?? 0)
    }

    func rowCount() throws(StoreError) -> Int { try Self.count(connection, design.oldLayout, entity: old) }

    /// The rows, counted the first time something needs them: an ALTER-only step with
    /// no check that depends on them is planned without reading its table.
    func rows(_ step: inout MigrationPlan.EntityStep) throws(StoreError) -> Int {
        if let n = step.rows { return n }
        let n = try rowCount()
        step.rows = n
        return n
    }

    func check(into step: inout MigrationPlan.EntityStep) throws(StoreError) {
        if new.isAbstract && !old.isAbstract, try rows(&step) > 0 {
            step.checks.append(try failing("no rows of the now abstract entity itself", "TRUE"))
        }
        for a in new.attributes where !a.isTransient {
            try checkAttribute(a, into: &step)
        }
        for r in new.relationships where !r.isTransient {
            try checkRelationship(r, into: &step)
        }
        try checkConstraints(into: &step)
    }

    private func oldColumn(_ a: AttributeDescription) -> (AttributeDescription, String)? {
        guard let oa = design.correspondence.oldAttribute(entity: new.name, attribute: a.name), !oa.isTransient,
              let i = old.attributeIndexByName[oa.name], let column = oldMapping.attributeColumns[i] else { return nil }
        return (oa, column)
    }

    private func checkAttribute(_ a: AttributeDescription, into step: inout MigrationPlan.EntityStep) throws(StoreError) {
        guard let (oa, column) = oldColumn(a) else {
            if !a.isOptional && a.defaultValue == nil, case let n = try rows(&step), n > 0 {
                step.checks.append(MigrationPlan.Check(what: "\(a.name) is new, required and has no default", failingRows: n, examples: try keys("TRUE")))
            }
            return
        }
        let c = quoteIdentifier(column)
        switch TypeChange.of(oa.type, a.type) {
        case .refused(let reason):
            step.refusals.append("\(a.name): \(reason)")
            return
        case .narrowing:
            step.checks.append(try failing("\(a.name) values fit \(a.type.rawValue)", TypeChange.misfitSQL(column, to: a.type, onServer: design.oldLayout.dialect is PostgreSQLDialect)))
        case .identity, .widening:
            break
        }
        if !a.isOptional && a.defaultValue == nil && oa.isOptional {
            step.checks.append(try failing("\(a.name) has a value (now required, no default)", "\(c) IS NULL"))
        }
        let length = [.string, .binary, .transformable, .uri].contains(a.type)
        let measured = length ? "length(\(c))" : c
        if let min = a.minValue, oa.minValue.map({ $0 < min }) ?? true {
            step.checks.append(try failing("\(a.name) \(length ? "length " : "")≥ \(min)", "\(c) IS NOT NULL AND \(measured) < \(min)"))
        }
        if let max = a.maxValue, oa.maxValue.map({ $0 > max }) ?? true {
            step.checks.append(try failing("\(a.name) \(length ? "length " : "")≤ \(max)", "\(c) IS NOT NULL AND \(measured) > \(max)"))
        }
        if let pattern = a.regex, pattern != oa.regex {
            let match = try design.oldLayout.dialect.regexpMatch(constantPattern: pattern, text: c) { Self.literal($0.stringValue ?? "") }
            step.checks.append(try failing("\(a.name) matches \(pattern)", "\(c) IS NOT NULL AND NOT \(match)"))
        }
    }

    private func checkRelationship(_ r: RelationshipDescription, into step: inout MigrationPlan.EntityStep) throws(StoreError) {
        guard let or = design.correspondence.oldRelationship(entity: new.name, relationship: r.name),
              let i = old.relationshipIndexByName[or.name] else {
            if !r.isToMany && !r.isOptional, case let n = try rows(&step), n > 0 {
                step.checks.append(MigrationPlan.Check(what: "\(r.name) is new and required", failingRows: n, examples: try keys("TRUE")))
            }
            return
        }
        if design.correspondence.newEntityName(for: or.destination) != r.destination {
            step.refusals.append("\(r.name): destination \(or.destination) → \(r.destination) is not the same entity (use a custom stage)")
            return
        }
        guard or.isToMany && !r.isToMany else { return }
        let groups: String
        switch oldMapping.relationshipStorage[i] {
        case .inverseForeignKey(let t, let column, _):
            groups = "SELECT \(quoteIdentifier(column)) k FROM \(quoteIdentifier(t)) WHERE \(quoteIdentifier(column)) IS NOT NULL GROUP BY 1 HAVING count(*) > 1"
        case .joinTable(let t, let source, _, _):
            groups = "SELECT \(quoteIdentifier(source)) k FROM \(quoteIdentifier(t)) GROUP BY 1 HAVING count(*) > 1"
        case .foreignKey:
            return
        }
        step.checks.append(try failing("\(r.name) has at most one object (to-many → to-one)", "\(pk) IN (SELECT k FROM (\(groups)))"))
    }

    /// Uniqueness constraints added over attributes that already have values.
    private func checkConstraints(into step: inout MigrationPlan.EntityStep) throws(StoreError) {
        let before = Set(old.declaration.uniquenessConstraints.map { Set($0) })
        let kinds = old.hierarchyNames.map(Self.literal).joined(separator: ", ")
        let ofHierarchy = "\(quoteIdentifier(design.oldLayout.entityColumn)) IN (\(kinds))"
        for constraint in new.declaration.uniquenessConstraints {
            let attributes = constraint.compactMap { new.attribute(named: $0) }
            guard attributes.count == constraint.count else { continue }
            var columns: [(AttributeDescription, String)] = [], added: [AttributeDescription] = []
            for a in attributes {
                if let column = oldColumn(a) { columns.append(column) } else { added.append(a) }
            }
            // A new attribute takes its default in every row (all rows equal there); one
            // without a default is NULL everywhere, and NULLs are never duplicates.
            guard added.allSatisfy({ $0.defaultValue != nil }) else { continue }
            guard !added.isEmpty || !before.contains(Set(columns.map(\.0.name))) else { continue }
            let what = "(\(constraint.joined(separator: ", "))) unique"
            guard !columns.isEmpty else {
                // Only new attributes: every row gets the same values, so two rows collide.
                step.checks.append(try failing(what, "\(ofHierarchy) AND (SELECT count(*) FROM \(table) WHERE \(ofHierarchy)) > 1", wholeHierarchy: true))
                continue
            }
            let cols = columns.map { quoteIdentifier($0.1) }.joined(separator: ", ")
            let notNull = columns.map { "\(quoteIdentifier($0.1)) IS NOT NULL" }.joined(separator: " AND ")
            let scope = "\(ofHierarchy) AND \(notNull)"
            let duplicated = "(\(cols)) IN (SELECT \(cols) FROM \(table) WHERE \(scope) GROUP BY \(cols) HAVING count(*) > 1)"
            step.checks.append(try failing(what, "\(scope) AND \(duplicated)", wholeHierarchy: true))
        }
    }

    /// A check counting this entity's rows where `condition` holds.
    private func failing(_ what: String, _ condition: String, wholeHierarchy: Bool = false) throws(StoreError) -> MigrationPlan.Check {
        let scope = wholeHierarchy ? "" : "\(ofEntity) AND "
        let n = Int(try connection.scalarInt("SELECT count(*) FROM \(table) WHERE \(scope)(\(condition))") ?? 0)
        return MigrationPlan.Check(what: what, failingRows: n, examples: n == 0 ? [] : try keys(condition, scope: scope))
    }

    private func keys(_ condition: String, scope: String? = nil) throws(StoreError) -> [Int64] {
        try connection.rows("SELECT \(pk) FROM \(table) WHERE \(scope ?? "\(ofEntity) AND ")(\(condition)) ORDER BY \(pk)\(design.oldLayout.dialect.limitOffset(limit: 5, offset: nil))").compactMap(\.first?.integerValue)
    }
}
