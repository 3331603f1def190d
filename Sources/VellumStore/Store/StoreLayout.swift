import Foundation

/// How a relationship's value is stored.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one held in a column of the source row (the target's primary key).
    case foreignKey(column: String)
    /// Rows of the destination table whose `column` holds the source's primary key
    /// (the to-many side of one-to-many, or the non-owning side of one-to-one).
    /// `positionColumn` orders an ordered to-many.
    case inverseForeignKey(table: String, column: String, positionColumn: String?)
    /// A many-to-many join table; `sourceColumn` holds this side's primary key.
    /// `positionColumn` orders this side's relationship when it is ordered.
    case joinTable(table: String, sourceColumn: String, targetColumn: String, positionColumn: String?)
}

/// The column layout of one entity within its root's table.
public struct EntityMapping: Sendable {
    public let entity: Entity
    public let table: String
    /// Aligned with `entity.attributes`; nil for transient attributes.
    public let attributeColumns: [String?]
    /// Aligned with `entity.relationships`.
    public let relationshipStorage: [RelationshipStorage]

    public init(entity: Entity, table: String, attributeColumns: [String?], relationshipStorage: [RelationshipStorage]) {
        self.entity = entity
        self.table = table
        self.attributeColumns = attributeColumns
        self.relationshipStorage = relationshipStorage
    }
}

/// A many-to-many join table and the root tables and to-many relationships
/// its two key columns stand for. Rows are written from the `source` side.
public struct JoinTable: Sendable, Hashable {
    public var table: String
    /// The column holding keys of `sourceTable` rows, and theirs to-many through this table.
    public var sourceColumn: String
    public var sourceTable: String
    public var sourceRelationship: String
    /// The column holding keys of `targetTable` rows, and their to-many through this table.
    public var targetColumn: String
    public var targetTable: String
    public var targetRelationship: String

    public init(table: String, sourceColumn: String, sourceTable: String, sourceRelationship: String,
                targetColumn: String, targetTable: String, targetRelationship: String) {
        self.table = table
        self.sourceColumn = sourceColumn
        self.sourceTable = sourceTable
        self.sourceRelationship = sourceRelationship
        self.targetColumn = targetColumn
        self.targetTable = targetTable
        self.targetRelationship = targetRelationship
    }
}

/// Maps a model onto tables. This is the one place that knows the store's
/// layout: contexts, queries, results and history ask it for table and column
/// names, system columns, key allocation and join tables, and build SQL with its
/// `dialect`, so another layout (Core Data's `Z_` tables) can be added beside it
/// (`StoreOptions.layout`) without touching them.
public protocol StoreLayout: Sendable {
    var model: ManagedObjectModel { get }
    /// How SQL is spelled for the engine holding this layout's tables.
    var dialect: any SQLDialect { get }
    func mapping(for entityName: String) -> EntityMapping?
    /// SQL statements that create the schema in an empty database.
    func schemaSQL() -> [String]
    /// Column names of the system columns: the integer key, the concrete
    /// entity's name, and the version bumped by every update (optimistic locking).
    var primaryKeyColumn: String { get }
    var entityColumn: String { get }
    var versionColumn: String { get }
    /// Every many-to-many join table, once each, sorted by name.
    var joinTables: [JoinTable] { get }
    /// The join table named `table`.
    func joinTable(named table: String) -> JoinTable?
    /// A query of one row and column: the largest key `table` ever handed out
    /// (keys are never reused; the next is one more). `?1` is bound to the table's name.
    func largestKeyEverSQL(table: String) -> String
    /// SQL for the concrete entity name of a row of `table` seen as `alias`: the
    /// entity column, or a constant where a table holds one entity.
    func entityExpression(table: String, alias: String?) -> String
    /// SQL for the version of a row of `table` seen as `alias`: the version column
    /// that each update bumps, or a value computed from the row's columns (so that
    /// any writer's change to them changes it) where there is none.
    func versionExpression(table: String, alias: String?) -> String
    /// False when the tables have no entity and version columns: inserts and updates
    /// leave them out, write only what changed, and read the row back after writing.
    var writesSystemColumns: Bool { get }
    /// The column of `table` shown as an attribute that is also the row's key
    /// (`INTEGER PRIMARY KEY`), or nil: written only through the key.
    func keyAttributeColumn(table: String) -> String?
    /// Seconds from 1970 to the epoch dates are stored against (0; Core Data: 2001).
    var dateEpochSince1970: Double { get }
    /// What an inserted row of `entityName` stores in the entity column (its name; Core Data: its number).
    func storedEntity(_ entityName: String) -> Value
    /// SQL run in the saving transaction once keys up to `?2` were handed out for rows of
    /// `table` (`?1`), where the layout keeps a counter of its own that other programs'
    /// inserts use (Core Data's `Z_MAX`, a PostgreSQL identity sequence); nil where the
    /// table's largest key is enough.
    func keysHandedOutSQL(table: String) -> String?
}

extension StoreLayout {
    public func entityExpression(table: String, alias: String?) -> String { qualifiedEntity(alias) }
    public func versionExpression(table: String, alias: String?) -> String {
        (alias.map { $0 + "." } ?? "") + dialect.quote(versionColumn)
    }
    public var writesSystemColumns: Bool { true }
    public func keyAttributeColumn(table: String) -> String? { nil }
    public var dateEpochSince1970: Double { 0 }
    public func storedEntity(_ entityName: String) -> Value { .string(entityName) }
    public func keysHandedOutSQL(table: String) -> String? { nil }

    /// Key, entity and version of rows of `table`, prefixed with `alias.` (for select lists).
    public func systemColumns(table: String, alias: String? = nil) -> String {
        [qualifiedKey(alias), entityExpression(table: table, alias: alias), versionExpression(table: table, alias: alias)].joined(separator: ", ")
    }
}

extension StoreLayout {
    /// The table holding `entityName`'s rows (its root's table).
    public func table(of entityName: String) -> String? { mapping(for: entityName)?.table }

    /// The three system columns, quoted and prefixed with `alias.` (for select lists).
    public func qualifiedSystemColumns(_ alias: String? = nil) -> String {
        let prefix = alias.map { $0 + "." } ?? ""
        return [primaryKeyColumn, entityColumn, versionColumn].map { prefix + dialect.quote($0) }.joined(separator: ", ")
    }

    /// `alias.primaryKey`, quoted.
    public func qualifiedKey(_ alias: String? = nil) -> String {
        (alias.map { $0 + "." } ?? "") + dialect.quote(primaryKeyColumn)
    }

    /// `alias.entity`, quoted.
    public func qualifiedEntity(_ alias: String? = nil) -> String {
        (alias.map { $0 + "." } ?? "") + dialect.quote(entityColumn)
    }
}
