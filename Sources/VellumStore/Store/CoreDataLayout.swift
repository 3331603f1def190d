import Foundation

/// The layout of a store written by Core Data (`docs/core-data-stores.md`): one table
/// `Z<ROOT>` per root entity shared by its sub-entities, told apart by the integer
/// `Z_ENT`; `Z_PK` keys shared across a hierarchy, the last one handed out kept as
/// `Z_MAX` on the root's `Z_PRIMARYKEY` row; `Z_OPT` bumped by every update; a column per
/// stored attribute and to-one relationship (`CoreDataNaming`); to-many through the
/// inverse's column (ordered: `Z_FOK_<INVERSE>`); many-to-many join tables `Z_<n><REL>`;
/// dates as seconds since 2001. Every name is checked against the file's schema, so a
/// model that does not fit is refused naming the table and column.
public final class CoreDataLayout: StoreLayout {
    public let model: ManagedObjectModel
    public let dialect: any SQLDialect = SQLiteDialect()
    public let primaryKeyColumn = "Z_PK"
    public let entityColumn = "Z_ENT"
    public let versionColumn = "Z_OPT"
    /// Core Data stores dates as seconds since 2001-01-01 00:00:00 UTC.
    public var dateEpochSince1970: Double { 978_307_200 }
    public let joinTables: [JoinTable]
    /// `Z_ENT` of each entity (computed from the model, so right after an entity rename).
    public let entityNumbers: [String: Int64]
    private let mappings: [String: EntityMapping]
    private let joinTablesByName: [String: JoinTable]
    /// Root entity per table, and the entities sharing it.
    private let rootByTable: [String: Entity]
    /// Core Data's persistent-history tables, when the store has them (a save records itself there).
    public let history: CoreDataHistoryTables?
    /// Per entity, the `Z<n>_<NAME>` columns of its to-one relationships whose destination has
    /// sub-entities: they hold the destination row's `Z_ENT`.
    let companions: [String: [CoreDataCompanionColumn]]
    /// Every Core Data save bumps `Z_OPT`, and a store may record persistent history.
    public let changeSource: LayoutChangeSource

    public init(model: ManagedObjectModel, schema: ForeignSchema) throws(StoreError) {
        self.model = model
        let naming = CoreDataNaming(model: model)
        entityNumbers = naming.entityNumbers
        var mappings: [String: EntityMapping] = [:], joins: [String: JoinTable] = [:], roots: [String: Entity] = [:]
        var companions: [String: [CoreDataCompanionColumn]] = [:]
        for name in model.entityNames {
            let entity = model.entity(named: name)!
            let tableName = naming.tables[name]!
            guard let table = schema.table(named: tableName) else { throw Self.misfit(name, "the store has no table \(tableName)") }
            roots[table.name] = model.entity(named: entity.rootName)
            let columns = try entity.attributes.map { a throws(StoreError) -> String? in
                guard !a.isTransient else { return nil }
                return try Self.column(naming.column(entity: name, property: a.name), in: table, entity: name, property: a.name)
            }
            var storage: [RelationshipStorage] = []
            for r in entity.relationships {
                storage.append(try Self.storage(of: r, entity: entity, model: model, naming: naming, schema: schema, joins: &joins))
            }
            mappings[name] = EntityMapping(entity: entity, table: table.name, attributeColumns: columns, relationshipStorage: storage)
            companions[name] = CoreDataCompanionColumn.columns(of: entity, storage: storage, table: table, model: model, tables: naming.tables)
        }
        self.companions = companions
        let history = CoreDataHistoryTables(schema: schema)
        self.history = history
        self.mappings = mappings
        rootByTable = roots
        joinTables = joins.keys.sorted().map { joins[$0]! }
        joinTablesByName = joins
        changeSource = .rowVersions(RowVersionSource(
            entityNames: Dictionary(naming.entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a }),
            tables: Set(mappings.values.map(\.table)).sorted(), hasCoreDataHistory: history != nil))
    }

    static func misfit(_ entity: String, _ detail: String) -> StoreError {
        .invalidOperation("the model does not fit the Core Data store: entity \(entity): \(detail)")
    }

    private static func column(_ name: String?, in table: ForeignSchema.Table, entity: String, property: String) throws(StoreError) -> String {
        guard let name, let c = table.column(named: name) else {
            throw misfit(entity, "table \(table.name) has no column \(name ?? "") (property \(property))")
        }
        return c.name
    }

    /// Where `r` lives: its own column (to-one), the inverse's column in the destination's
    /// table (one-to-many), or a join table (many-to-many, recorded once in `joins`).
    private static func storage(of r: RelationshipDescription, entity: Entity, model: ManagedObjectModel, naming: CoreDataNaming,
                                schema: ForeignSchema, joins: inout [String: JoinTable]) throws(StoreError) -> RelationshipStorage {
        let table = schema.table(named: naming.tables[entity.name]!)!
        if !r.isToMany {
            return .foreignKey(column: try column(naming.column(entity: entity.name, property: r.name), in: table, entity: entity.name, property: r.name))
        }
        guard let destination = model.entity(named: r.destination), let inverse = destination.relationship(named: r.inverse),
              let destinationTable = schema.table(named: naming.tables[destination.name] ?? "") else {
            throw misfit(entity.name, "to-many \(r.name) has no inverse: Vellum cannot tell where Core Data keeps it")
        }
        if !inverse.isToMany {
            let fk = try column(naming.column(entity: destination.name, property: inverse.name), in: destinationTable, entity: destination.name, property: inverse.name)
            let position = r.isOrdered ? destinationTable.column(named: "Z_FOK_" + fk.dropFirst())?.name : nil
            return .inverseForeignKey(table: destinationTable.name, column: fk, positionColumn: position)
        }
        // Many-to-many: `Z_<n><REL>` named from one side, a key column per side named
        // `Z_<n of the entity whose keys it holds><relationship pointing at that entity>`.
        let n = naming.entityNumbers[declaring(r.name, of: entity, model)] ?? 0
        let m = naming.entityNumbers[declaring(inverse.name, of: destination, model)] ?? 0
        if n == m && r.name == inverse.name {
            return try selfInverseStorage(of: r, entity: entity, number: n, table: table, schema: schema, joins: &joins)
        }
        let mine = "Z_\(n)\(inverse.name.uppercased())", theirs = "Z_\(m)\(r.name.uppercased())"
        for (candidate, owned) in [("Z_\(n)\(r.name.uppercased())", true), ("Z_\(m)\(inverse.name.uppercased())", false)] {
            guard let join = schema.table(named: candidate), let source = join.column(named: mine), let target = join.column(named: theirs) else { continue }
            if owned {
                joins[join.name] = JoinTable(table: join.name, sourceColumn: source.name, sourceTable: table.name, sourceRelationship: r.name,
                                             targetColumn: target.name, targetTable: destinationTable.name, targetRelationship: inverse.name)
            }
            // Ordered: the join table's `Z_FOK_` column, taken when it is the only one and only
            // this side is ordered (which side a column orders is not told by its name).
            let ordering = join.columns.map(\.name).filter { $0.hasPrefix("Z_FOK_") }
            let position = r.isOrdered && !inverse.isOrdered && ordering.count == 1 ? ordering[0] : nil
            return .joinTable(table: join.name, sourceColumn: source.name, targetColumn: target.name, positionColumn: position)
        }
        throw misfit(entity.name, "many-to-many \(r.name): no join table Z_\(n)\(r.name.uppercased()) or Z_\(m)\(inverse.name.uppercased()) with columns \(mine), \(theirs)")
    }

    /// A many-to-many that is its own inverse (Person.friends ↔ Person.friends): both key
    /// columns would be `Z_<n><REL>`, so Core Data suffixes the second one's name with `1`, as
    /// it does every clashing join column (`Z_19PARENTGROUPS1` in the macOS Contacts store). It
    /// keeps one row per pair, in either order (`JoinTable.keepsEachPairOnce`).
    private static func selfInverseStorage(of r: RelationshipDescription, entity: Entity, number n: Int64, table: ForeignSchema.Table,
                                           schema: ForeignSchema, joins: inout [String: JoinTable]) throws(StoreError) -> RelationshipStorage {
        let name = "Z_\(n)\(r.name.uppercased())"
        guard let join = schema.table(named: name), let first = join.column(named: name), let second = join.column(named: name + "1") else {
            throw misfit(entity.name, "many-to-many \(r.name) (its own inverse): no join table \(name) with columns \(name), \(name)1")
        }
        joins[join.name] = JoinTable(table: join.name, sourceColumn: first.name, sourceTable: table.name, sourceRelationship: r.name,
                                     targetColumn: second.name, targetTable: table.name, targetRelationship: r.name, keepsEachPairOnce: true)
        return .joinTable(table: join.name, sourceColumn: first.name, targetColumn: second.name, positionColumn: nil)
    }

    /// The entity of `entity`'s lineage that declares the relationship `name`.
    private static func declaring(_ name: String, of entity: Entity, _ model: ManagedObjectModel) -> String {
        entity.relationshipIndexByName[name].map { entity.relationshipDeclaringEntities[$0] } ?? entity.name
    }

    public func mapping(for entityName: String) -> EntityMapping? { mappings[entityName] }
    public func joinTable(named table: String) -> JoinTable? { joinTablesByName[table] }
    /// Nothing is ever created in a Core Data store.
    public func schemaSQL() -> [String] { [] }

    /// On each connection, a TEMP view of the same name shadows each join table that keeps a
    /// pair once (`JoinTable.keepsEachPairOnce`) and shows every pair in both orders, so
    /// reads and queries find a member from either side. The file is not changed.
    public func prepare(_ connection: Connection) throws(StoreError) {
        let once = joinTables.filter(\.keepsEachPairOnce)
        guard !once.isEmpty else { return }
        try connection.allowingTemporaryObjects { () throws(StoreError) in
            for j in once {
                let (t, a, b) = (dialect.quote(j.table), dialect.quote(j.sourceColumn), dialect.quote(j.targetColumn))
                try connection.run("CREATE TEMP VIEW \(t) AS SELECT \(a), \(b) FROM main.\(t) UNION SELECT \(b), \(a) FROM main.\(t)")
            }
        }
    }

    /// Join tables shadowed by a view (`prepare`) are written in `main`.
    public func rowWriteTarget(table: String) -> RowWriteTarget {
        let name = dialect.quote(table)
        return RowWriteTarget(target: joinTablesByName[table]?.keepsEachPairOnce == true ? "main.\(name)" : name, match: "\(qualifiedKey()) = ?")
    }

    /// `Z_MAX` of the hierarchy's root (what Core Data hands out from), or the largest row if larger.
    public func largestKeyEverSQL(table: String) -> String {
        let number = rootByTable[table].flatMap { entityNumbers[$0.name] } ?? 0
        return "SELECT max(coalesce((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = \(number)), 0), "
            + "coalesce((SELECT max(Z_PK) FROM \(dialect.quote(table))), 0)) WHERE ?1 IS NOT NULL"
    }

    /// Core Data hands keys out from `Z_MAX` of the hierarchy's root, updated in the same transaction.
    public func keysHandedOutSQL(table: String) -> String? {
        let number = rootByTable[table].flatMap { entityNumbers[$0.name] } ?? 0
        return "UPDATE Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), ?2) WHERE Z_ENT = \(number) AND ?1 IS NOT NULL"
    }

    public func storedEntity(_ entityName: String) -> Value { .integer(entityNumbers[entityName] ?? 0) }

    /// The entity's name from the row's `Z_ENT` number.
    public func entityExpression(table: String, alias: String?) -> String {
        guard let root = rootByTable[table] else { return dialect.literal(table) }
        if root.hierarchyNames.count == 1 { return dialect.literal(root.name) }
        let cases = root.hierarchyNames.map { "WHEN \(entityNumbers[$0] ?? 0) THEN \(dialect.literal($0))" }
        return "CASE \(qualifiedEntity(alias)) \(cases.joined(separator: " ")) END"
    }
}
