import Foundation

/// The layout of a SQLite database Vellum did not create: one entity per table,
/// rows addressed by their rowid (the `INTEGER PRIMARY KEY` column where there
/// is one), no entity or version column. A row's version is a digest of all its
/// columns (`vellum_row_version`), so an update is refused as a conflict when
/// any writer changed the row since it was read. Names come from the entities'
/// `userInfo` (`ForeignMappingKeys`), else are the entity's and properties' own;
/// a model that does not fit the schema is refused naming the table and column.
public final class ForeignLayout: StoreLayout {
    public let model: ManagedObjectModel
    public let schema: ForeignSchema
    public let dialect: any SQLDialect = SQLiteDialect()
    /// `rowid` addresses every row of a rowid table, and is the `INTEGER PRIMARY KEY` where there is one.
    public let primaryKeyColumn = "rowid"
    /// Foreign tables have neither: see `entityExpression` and `versionExpression`.
    public let entityColumn = ""
    public let versionColumn = ""
    public let joinTables: [JoinTable]
    public var writesSystemColumns: Bool { false }
    private let mappings: [String: EntityMapping]
    private let entityByTable: [String: String]
    private let joinTablesByName: [String: JoinTable]
    /// Table → column → how its dates are stored, for date columns not stored as Unix seconds.
    private let dateStorage: [String: [String: ForeignDateStorage]]
    /// Table → to-one column → the key it refers to, where that is not the target's rowid
    /// (`ForeignLayout+KeyReferences`).
    let keyReferences: [String: [String: ForeignSchema.KeyReference]]
    /// Table → the view's column for a foreign key of several columns → what it refers to
    /// (`ForeignLayout+CompositeKeys`).
    let compositeReferences: [String: [String: ForeignSchema.CompositeReference]]

    /// `connection` reads how date columns a mapping names without a storage entry store
    /// their dates (`ForeignDateStorage.detect`); without it they are taken as Unix seconds.
    public init(model: ManagedObjectModel, schema: ForeignSchema, readingDatesFrom connection: Connection? = nil) throws(StoreError) {
        self.model = model
        self.schema = schema
        var mappings: [String: EntityMapping] = [:]
        var entityByTable: [String: String] = [:]
        var joins: [String: JoinTable] = [:]
        var dates: [String: [String: ForeignDateStorage]] = [:]
        var references: [String: [String: ForeignSchema.KeyReference]] = [:]
        var composites: [String: [String: ForeignSchema.CompositeReference]] = [:]
        for name in model.entityNames {
            let entity = model.entity(named: name)!
            guard entity.declaration.parent == nil, entity.subentityNames.isEmpty else {
                throw Self.misfit(name, "sub-entities cannot be mapped onto another program's tables")
            }
            let table = try Self.table(for: entity, schema: schema)
            if let other = entityByTable.updateValue(name, forKey: table.name) {
                throw Self.misfit(name, "table '\(table.name)' is already mapped by entity \(other)")
            }
            let columns = try entity.attributes.map { a throws(StoreError) -> String? in
                if a.isTransient { return nil }
                let column = entity.declaration.userInfo[ForeignMappingKeys.column(a.name)] ?? a.name
                guard let c = table.column(named: column) else { throw Self.misfit(name, "table '\(table.name)' has no column '\(column)' (attribute \(a.name))") }
                return c.name
            }
            var storage: [RelationshipStorage] = []
            for r in entity.relationships {
                let destination = model.entity(named: r.destination)!
                let destinationTable = try Self.table(for: destination, schema: schema)
                if let spec = entity.declaration.userInfo[ForeignMappingKeys.joinTable(r.name)] {
                    guard let (t, source, target) = ForeignMappingKeys.joinParts(spec), let join = schema.table(named: t),
                          let s = join.column(named: source), let d = join.column(named: target) else {
                        throw Self.misfit(name, "relationship \(r.name): join table '\(spec)' is not in the database")
                    }
                    storage.append(.joinTable(table: join.name, sourceColumn: s.name, targetColumn: d.name, positionColumn: nil))
                    if joins[join.name] == nil || name < joins[join.name]!.sourceTable {
                        joins[join.name] = JoinTable(table: join.name, sourceColumn: s.name, sourceTable: table.name, sourceRelationship: r.name,
                                                     targetColumn: d.name, targetTable: destinationTable.name, targetRelationship: r.inverse)
                    }
                } else if !r.isToMany, let column = Self.foreignKeyColumn(entity, r, table: table, destinationTable: destinationTable) {
                    storage.append(.foreignKey(column: column))
                    if let reference = Self.keyReference(of: column, table: table, destinationTable: destinationTable, schema: schema) {
                        references[table.name, default: [:]][column] = reference
                    }
                } else if !r.isToMany, let composite = try Self.compositeForeignKey(entity, r, table: table, destinationTable: destinationTable, schema: schema) {
                    let column = Self.compositeColumn(composite.from)
                    if table.column(named: column) != nil { throw Self.misfit(name, "relationship \(r.name): table '\(table.name)' has a column named '\(column)', the name its foreign key is read by") }
                    storage.append(.foreignKey(column: column))
                    composites[table.name, default: [:]][column] = composite
                } else if let inverse = destination.relationship(named: r.inverse), !inverse.isToMany,
                          let column = try Self.toOneColumn(destination, inverse, table: destinationTable, destinationTable: table, schema: schema) {
                    storage.append(.inverseForeignKey(table: destinationTable.name, column: column, positionColumn: nil))
                } else {
                    throw Self.misfit(name, "relationship \(r.name): no foreign-key column in '\(table.name)' or '\(destinationTable.name)' stands for it")
                }
            }
            for (a, column) in zip(entity.attributes, columns) where a.type == .date {
                guard let column else { continue }
                if let spec = entity.declaration.userInfo[ForeignMappingKeys.dateStorage(a.name)] {
                    guard let storage = ForeignDateStorage(userInfoValue: spec) else {
                        throw Self.misfit(name, "attribute \(a.name): '\(spec)' is not a date storage (text YYYY-MM-DD HH:MM:SS, unixSeconds, unixSecondsReal, unixMilliseconds, julianDay)")
                    }
                    dates[table.name, default: [:]][column] = storage
                } else if let connection, let c = table.column(named: column) {
                    guard let storage = try ForeignDateStorage.detect(column: c, table: table.name, connection: connection) else {
                        throw Self.misfit(name, "attribute \(a.name): column '\(column)' of '\(table.name)' holds no dates (ISO-8601 text, Unix seconds or milliseconds, Julian days); give its form as \(ForeignMappingKeys.dateStorage(a.name)) or another type")
                    }
                    dates[table.name, default: [:]][column] = storage
                }
            }
            mappings[name] = EntityMapping(entity: entity, table: table.name, attributeColumns: columns, relationshipStorage: storage)
        }
        self.mappings = mappings
        self.entityByTable = entityByTable
        joinTables = joins.keys.sorted().map { joins[$0]! }
        joinTablesByName = joins
        dateStorage = dates
        keyReferences = references
        compositeReferences = composites
    }

    private static func misfit(_ entity: String, _ detail: String) -> StoreError {
        .invalidOperation("the model does not fit the database: entity \(entity): \(detail)")
    }

    private static func table(for entity: Entity, schema: ForeignSchema) throws(StoreError) -> ForeignSchema.Table {
        let name = entity.declaration.userInfo[ForeignMappingKeys.table] ?? entity.name
        guard let table = schema.table(named: name) else { throw misfit(entity.name, "the database has no table '\(name)'") }
        if let reason = table.unaddressableReason { throw misfit(entity.name, "'\(name)' is \(reason)") }
        return table
    }

    /// The column of `table` holding a to-one's target key: as mapped, else the one
    /// declared foreign key from `table` to `destinationTable`.
    private static func foreignKeyColumn(_ entity: Entity, _ r: RelationshipDescription, table: ForeignSchema.Table,
                                         destinationTable: ForeignSchema.Table) -> String? {
        if let mapped = entity.declaration.userInfo[ForeignMappingKeys.foreignKey(r.name)] {
            return ForeignMappingKeys.columnList(mapped) == nil ? table.column(named: mapped)?.name : nil
        }
        let keys = table.foreignKeys.filter { $0.from.count == 1 && $0.table.caseInsensitiveCompare(destinationTable.name) == .orderedSame }
        return keys.count == 1 ? table.column(named: keys[0].from[0])?.name : nil
    }

    /// The column a to-one is read from: its foreign-key column, or the view's column for its composite key.
    private static func toOneColumn(_ entity: Entity, _ r: RelationshipDescription, table: ForeignSchema.Table,
                                    destinationTable: ForeignSchema.Table, schema: ForeignSchema) throws(StoreError) -> String? {
        if let column = foreignKeyColumn(entity, r, table: table, destinationTable: destinationTable) { return column }
        return try compositeForeignKey(entity, r, table: table, destinationTable: destinationTable, schema: schema).map { compositeColumn($0.from) }
    }

    public func mapping(for entityName: String) -> EntityMapping? { mappings[entityName] }
    /// The tables entities are mapped onto.
    var mappedTables: [String] { entityByTable.keys.sorted() }
    public func joinTable(named table: String) -> JoinTable? { joinTablesByName[table] }
    /// Nothing is ever created in another program's database.
    public func schemaSQL() -> [String] { [] }

    public func largestKeyEverSQL(table: String) -> String {
        let largestRow = "coalesce((SELECT max(rowid) FROM \(dialect.quote(table))), 0)"
        guard schema.table(named: table)?.autoincrement == true else { return "SELECT \(largestRow) WHERE ?1 IS NOT NULL" }
        return "SELECT max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = ?1), 0), \(largestRow))"
    }

    public func entityExpression(table: String, alias: String?) -> String {
        dialect.literal(entityByTable[table] ?? table)
    }

    public func versionExpression(table: String, alias: String?) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        let columns = (versionColumns(table: table) ?? []).map { prefix + dialect.quote($0) }
        return "vellum_row_version(\(columns.joined(separator: ", ")))"
    }

    /// Every column of the table, in its order: what `versionExpression` digests.
    public func versionColumns(table: String) -> [String]? {
        schema.table(named: table)?.columns.map(\.name) ?? []
    }

    public func readExpression(table: String, column: String, alias: String) -> String {
        let sql = alias + "." + dialect.quote(column)
        return dateStorage[table]?[column]?.readSQL(sql) ?? sql
    }

    public func comparableExpression(table: String, column: String, alias: String) -> String {
        let sql = alias + "." + dialect.quote(column)
        return dateStorage[table]?[column]?.secondsSQL(sql) ?? sql
    }

    /// What is written into `column` of `table` for `value`: a date in the form the column stores dates in.
    public func storedForm(_ value: Value, table: String, column: String) -> Value {
        dateStorage[table]?[column]?.stored(value) ?? value
    }

    /// The column's `DEFAULT` when it is a literal integer (`DEFAULT 0`, `DEFAULT '0'`: integer
    /// affinity) naming a rowid; NULL or an expression gives none.
    public func defaultForeignKey(table: String, column: String) -> Int64? {
        // A default of a column referring to a key other than the rowid is no object's key.
        guard keyReferences[table]?[column] == nil, compositeReferences[table]?[column] == nil, let sql = schema.table(named: table)?.column(named: column)?.defaultSQL, let literal = ForeignColumnType.literal(sql) else { return nil }
        return (try? literal.coerced(to: .integer64))?.integerValue
    }

    public func keyAttributeColumn(table: String) -> String? {
        schema.table(named: table)?.integerPrimaryKey
    }
}
