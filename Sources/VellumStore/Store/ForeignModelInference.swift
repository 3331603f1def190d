import Foundation

/// Infers a model from a foreign database's schema: a table is an entity, a
/// column an attribute, a single-column foreign key to a table's key (its rowid,
/// another single-column primary key or a UNIQUE column: `ForeignSchema.reference`)
/// a to-one relationship (named after the column; a key of several columns to a
/// composite key, `compositeReference`, one named after its target) with an inverse to-many on the
/// target (named after the source table), and a table whose primary key is two
/// foreign keys to rowids and nothing else also a many-to-many between the two.
/// Where each name comes from is kept in the entities' `userInfo`
/// (`ForeignMappingKeys`), so a saved and edited model still finds its columns.
public enum ForeignModelInference {
    /// Tables that cannot be entities, with the reason (a table or view with a column
    /// named `rowid` that is not its `INTEGER PRIMARY KEY`: nothing to address its rows by).
    public static func skippedTables(_ schema: ForeignSchema) -> [(table: String, reason: String)] {
        schema.tables.compactMap { t in t.unaddressableReason.map { (t.name, $0) } }
    }

    /// `enforcesForeignKeys` false: the delete rules are `noAction`, as SQLite runs no
    /// `ON DELETE` action and refuses nothing with foreign keys off.
    public static func model(for schema: ForeignSchema, connection: Connection, enforcesForeignKeys: Bool = true) throws(StoreError) -> ManagedObjectModel {
        let tables = schema.tables.filter { $0.identity != nil }
        let included = Set(tables.map { $0.name.lowercased() })
        var entities: [String: EntityDescription] = [:]
        var relationshipColumns: [String: Set<String>] = [:]  // table → FK columns that became relationships
        // Pass 1: to-one relationships and their inverses.
        var toOnes: [(source: String, columns: [String], target: String, onDelete: String, notNull: Bool, toRowID: Bool)] = []
        for t in tables {
            for k in t.foreignKeys where k.from.count == 1 {
                guard let reference = schema.reference(k), included.contains(reference.target.name.lowercased()),
                      let column = t.column(named: k.from[0]) else { continue }
                guard relationshipColumns[t.name, default: []].insert(column.name.lowercased()).inserted else { continue }
                toOnes.append((t.name, [column.name], reference.target.name, k.onDelete.uppercased(), column.notNull, reference.isRowID))
            }
        }
        // Foreign keys of several columns (to a composite primary key or UNIQUE set), where
        // no column already stands for another to-one: a to-one writes all of its columns.
        for t in tables {
            for k in t.foreignKeys where k.from.count >= 2 {
                guard let reference = schema.compositeReference(k, in: t), included.contains(reference.target.name.lowercased()) else { continue }
                let lowered = Set(reference.from.map { $0.lowercased() })
                guard lowered.count == reference.from.count, relationshipColumns[t.name, default: []].isDisjoint(with: lowered) else { continue }
                relationshipColumns[t.name, default: []].formUnion(lowered)
                let notNull = reference.from.allSatisfy { t.column(named: $0)?.notNull == true }
                toOnes.append((t.name, reference.from, reference.target.name, k.onDelete.uppercased(), notNull, false))
            }
        }
        for t in tables {
            var e = EntityDescription(name: t.name)
            e.userInfo[ForeignMappingKeys.table] = t.name
            if let reason = t.readOnlyReason { e.userInfo[ForeignMappingKeys.readOnly] = reason }
            var taken: Set<String> = []
            for c in t.columns where !(relationshipColumns[t.name]?.contains(c.name.lowercased()) ?? false) {
                let name = uniqueName(propertyName(c.name), taken: &taken)
                let (a, dates) = try attribute(name: name, column: c, table: t, connection: connection)
                e.attributes.append(a)
                e.userInfo[ForeignMappingKeys.column(name)] = c.name
                if let dates { e.userInfo[ForeignMappingKeys.dateStorage(name)] = dates.userInfoValue }
            }
            for set in t.uniqueColumnSets {
                let names = set.compactMap { col in e.attributes.first { e.userInfo[ForeignMappingKeys.column($0.name)]?.caseInsensitiveCompare(col) == .orderedSame }?.name }
                if names.count == set.count { e.uniquenessConstraints.append(names) }
            }
            entities[t.name] = e
        }
        var taken: [String: Set<String>] = entities.mapValues { Set($0.attributes.map { $0.name.lowercased() }) }
        var named: [(Int, String)] = []
        for (i, r) in toOnes.enumerated() {
            // A composite key's to-one is named after its target (`line`), a column's after the column.
            let base = r.columns.count == 1 ? relationshipName(fromColumn: r.columns[0]) : relationshipName(fromColumn: r.target)
            named.append((i, uniqueName(base, taken: &taken[r.source, default: []])))
        }
        for (i, name) in named {
            let r = toOnes[i]
            let sameTarget = toOnes.filter { $0.source == r.source && $0.target == r.target }.count
            var inverse = plural(propertyName(r.source))
            if sameTarget > 1 || r.source == r.target && inverse == name { inverse += "By" + name.prefix(1).uppercased() + name.dropFirst() }
            inverse = uniqueName(inverse, taken: &taken[r.target, default: []])
            entities[r.source]!.relationships.append(RelationshipDescription(
                name: name, destination: r.target, inverse: inverse, isOptional: !r.notNull, deleteRule: .nullify))
            entities[r.source]!.userInfo[ForeignMappingKeys.foreignKey(name)] = r.columns.count == 1 ? r.columns[0] : ForeignMappingKeys.columnsSpec(r.columns)
            let rule: DeleteRule = enforcesForeignKeys ? deleteRule(onDelete: r.onDelete) : .noAction
            entities[r.target]!.relationships.append(RelationshipDescription(
                name: inverse, destination: r.source, inverse: name, isToMany: true, deleteRule: rule))
        }
        // Many-to-many through tables whose primary key is two foreign keys and nothing else.
        for t in schema.tables where !t.isView && t.columns.count == 2 && t.primaryKey.count == 2 {
            // Join rows hold the two objects' keys: rowids only (a key of another kind is a to-one's alone).
            let keys = t.primaryKey.compactMap { col in
                toOnes.first { $0.source == t.name && $0.toRowID && $0.columns[0].caseInsensitiveCompare(col) == .orderedSame }
            }
            guard keys.count == 2, keys[0].target != keys[1].target else { continue }
            let (a, b) = (keys[0], keys[1])
            let aName = uniqueName(plural(propertyName(b.target)), taken: &taken[a.target, default: []])
            let bName = uniqueName(plural(propertyName(a.target)), taken: &taken[b.target, default: []])
            // Deleting an object removes its join rows, unless foreign keys are off (SQLite leaves them).
            let joinRule: DeleteRule = enforcesForeignKeys ? .nullify : .noAction
            entities[a.target]!.relationships.append(RelationshipDescription(name: aName, destination: b.target, inverse: bName, isToMany: true, deleteRule: joinRule))
            entities[b.target]!.relationships.append(RelationshipDescription(name: bName, destination: a.target, inverse: aName, isToMany: true, deleteRule: joinRule))
            entities[a.target]!.userInfo[ForeignMappingKeys.joinTable(aName)] = ForeignMappingKeys.joinSpec(table: t.name, source: a.columns[0], target: b.columns[0])
            entities[b.target]!.userInfo[ForeignMappingKeys.joinTable(bName)] = ForeignMappingKeys.joinSpec(table: t.name, source: b.columns[0], target: a.columns[0])
        }
        do { return try ManagedObjectModel(entities: Array(entities.values)) } catch {
            throw .invalidOperation("the database's schema cannot be read as a model: \(error)")
        }
    }

    /// An attribute for a column: its type from the declared type (SQLite's affinity
    /// rules and common names) and, for dates, from how the values are stored (returned too).
    static func attribute(name: String, column c: ForeignSchema.Column, table: ForeignSchema.Table,
                          connection: Connection) throws(StoreError) -> (AttributeDescription, ForeignDateStorage?) {
        var type = ForeignColumnType.attributeType(declared: c.declaredType)
        var dates: ForeignDateStorage?
        if type == .date {
            (type, dates) = try ForeignColumnType.dateColumnType(column: c.name, declared: c.declaredType, table: table.name, connection: connection)
        }
        var a = AttributeDescription(name: name, type: type)
        let isKey = table.integerPrimaryKey?.caseInsensitiveCompare(c.name) == .orderedSame
        // The key and columns SQLite fills with a default may be left empty.
        a.isOptional = !c.notNull || isKey || c.defaultSQL != nil
        if let text = c.defaultSQL, let literal = ForeignColumnType.literal(text), let v = try? literal.coerced(to: type) {
            a.defaultValue = v
        }
        return (a, dates)
    }

    /// A property name for a column: names may not start with `_`.
    static func propertyName(_ column: String) -> String {
        var name = column
        while name.hasPrefix("_") { name.removeFirst() }
        return name.isEmpty ? "column" : name
    }

    /// `customer_id` → `customer`, `ReportsTo` → `reportsTo`, `SupportRepId` → `supportRep`.
    /// The delete rule of a to-many whose rows refer to the deleted one by a foreign key
    /// with this `ON DELETE` action (SQLite enforcing foreign keys).
    static func deleteRule(onDelete action: String) -> DeleteRule {
        switch action {
        case "CASCADE": .cascade
        case "SET NULL": .nullify
        case "SET DEFAULT": .setDefault
        default: .deny  // NO ACTION, RESTRICT
        }
    }

    static func relationshipName(fromColumn column: String) -> String {
        var base = propertyName(column)
        for suffix in ["_id", "_ID", "Id", "ID", "_Id"] where base.hasSuffix(suffix) && base.count > suffix.count {
            base = String(base.dropLast(suffix.count))
            break
        }
        return base.prefix(1).lowercased() + base.dropFirst()
    }

    /// English plurals of a table name's last word (`child` → `children`, `box` → `boxes`,
    /// `category` → `categories`); a name already ending in a single `s` is kept (`orders`).
    static func plural(_ name: String) -> String {
        let lower = name.prefix(1).lowercased() + name.dropFirst()
        if lower.hasSuffix("ss") { return lower + "es" }
        if lower.hasSuffix("s") { return lower }
        for (singular, plural) in [("child", "children"), ("person", "people"), ("Child", "Children"), ("Person", "People")] where lower.hasSuffix(singular) {
            return lower.dropLast(singular.count) + plural
        }
        if ["x", "z", "ch", "sh"].contains(where: lower.hasSuffix) { return lower + "es" }
        if lower.hasSuffix("y"), let before = lower.dropLast().last, !"aeiou".contains(before) { return lower.dropLast() + "ies" }
        return lower + "s"
    }

    /// `name`, or `name2`, `name3`… when taken (SQL names ignore case).
    static func uniqueName(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name
        var n = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(name)\(n)"
            n += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}
