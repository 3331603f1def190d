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
    /// A relationship that is its own inverse (Person.friends ↔ Person.friends) kept as Core
    /// Data keeps it: one row per pair, in either column order. Reads see both orders.
    public var keepsEachPairOnce: Bool

    public init(table: String, sourceColumn: String, sourceTable: String, sourceRelationship: String,
                targetColumn: String, targetTable: String, targetRelationship: String, keepsEachPairOnce: Bool = false) {
        self.keepsEachPairOnce = keepsEachPairOnce
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
    /// Where `versionExpression` is `vellum_row_version` of columns of `table` (no version
    /// column): those columns, so a reader that selects them anyway digests them itself
    /// (`Statement.rowVersion(columns:)`) instead of SQLite reading each twice; nil (the
    /// default) when the version is a column or any other expression.
    func versionColumns(table: String) -> [String]?
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
    /// SQL that hands out `?2` keys for new rows of `table` (`?1`) in one statement, past
    /// every key handed out before, and returns the last of them (a PostgreSQL sequence
    /// moved by `setval`); nil where keys come from `largestKeyEverSQL` and `keysHandedOutSQL`.
    func reserveKeysSQL(table: String) -> String?
    /// SQL reading `column` of `table` seen as `alias` in the form its attribute's
    /// type is read in: the column itself, or a conversion where the layout stores
    /// values in another form (another program's dates as milliseconds or Julian days).
    func readExpression(table: String, column: String, alias: String) -> String
    /// SQL comparing and sorting `column` of `table` seen as `alias` as its attribute's
    /// values compare (dates as Unix seconds, whatever form they are stored in).
    func comparableExpression(table: String, column: String, alias: String) -> String
    /// Readies a new connection to the store's file (TEMP views for another program's
    /// tables without a rowid); must not change the file.
    func prepare(_ connection: Connection) throws(StoreError)

    // Versions and what a save writes beside its rows.
    /// The version an inserted row starts at (1).
    var initialVersion: Int64 { get }
    /// The version an update writes over a row at `version` (one more).
    func nextVersion(after version: Int64) -> Int64
    /// Run in the saving transaction once a save's rows are written: what the layout
    /// keeps beside them (Core Data's companion columns and persistent history). `save`
    /// lists the written rows (called only by layouts that need them). Returns the key of
    /// a history transaction recorded for the save, which change reading then skips as
    /// this store's own (`PersistentStore.ownTransactions`), or nil.
    func finishSave(_ db: Connection, _ save: () -> SavedRows) throws(StoreError) -> Int64?
    /// How other writers' changes are learnt (`ChangeDetection.swift`).
    var changeSource: LayoutChangeSource { get }

    // Writing tables without system columns (`writesSystemColumns` false).
    /// Why rows of `table` cannot be written (a view), or nil.
    func readOnlyReason(table: String) -> String?
    /// The columns of `table` that make up a row's key: written on insert, never changed.
    func keyColumns(table: String) -> [String]
    /// SQL over the columns of `table` (unaliased) for the key of a row it stores, where that
    /// is not the rowid: an insert then leaves the key out and reads it back (`RETURNING`).
    func insertedKeySQL(table: String) -> String?
    /// Where writes of `table` go and the condition finding the row whose key is `?`.
    func rowWriteTarget(table: String) -> RowWriteTarget
    /// The columns whose values make up the key of a row of `table`, where that key is a
    /// digest of them (another program's text or composite key), else nil: whoever knows a
    /// row's values of these columns finds it by them, through the table's primary-key
    /// index, instead of by the digest, which SQLite computes for every row (`KeyColumnMatch`).
    func digestedKeyColumns(table: String) -> [String]?
    /// How rows of `table` whose key is a digest are found by the key alone (an ID from
    /// another process, a fault that never held values): a per-connection TEMP map from
    /// digest to key-column values (`DigestKeyMap`), so the primary-key index finds the row
    /// rather than a digest of every row. Nil (the default) where the key is no digest.
    func digestKeyMap(table: String) -> DigestKeyMap?
    /// What is written into `column` of `table` for `value` (another program's date forms).
    func storedForm(_ value: Value, table: String, column: String) -> Value
    /// SQL writing a to-one's destination key, bound to `?`, into `column` of `table`: `?`
    /// itself (the default), or the value the destination's row holds in the column another
    /// program's foreign key refers to, where that is not the rowid (a text key, a UNIQUE column).
    func foreignKeyWriteSQL(table: String, column: String) -> String
    /// The columns of `table` a to-one stored in `column` writes, each with the SQL of its
    /// value: `column` and `foreignKeyWriteSQL` (the default), or every column of another
    /// program's composite foreign key, whose values share one named parameter: the
    /// destination's key is bound once, where a single column's `?` would be.
    func foreignKeyAssignments(table: String, column: String) -> [(column: String, value: String)]
    /// The key a to-one stored in `column` of `table` takes when the object it holds is
    /// deleted under `DeleteRule.setDefault`: the column's `DEFAULT` (another program's
    /// `ON DELETE SET DEFAULT`); nil (the default) when there is none, and it is cleared.
    func defaultForeignKey(table: String, column: String) -> Int64?
    /// The same for a foreign key to a key other than the rowid (another program's text or
    /// UNIQUE key): SQL giving the object key of the row the column's `DEFAULT` names, with
    /// the value to bind; nil (the default) where `defaultForeignKey` says all.
    func defaultForeignKeyLookup(table: String, column: String) -> (sql: String, value: Value)?
    /// The condition on `table` for the rows whose to-one stored in `column` holds a given
    /// object (an inverse to-many's rows): `column = ?` with its key by default.
    func inverseForeignKeyCondition(table: String, column: String) -> InverseForeignKeyCondition
    /// `failure` of a write to `table` worded with what the layout knows of the schema
    /// (the foreign keys involved, a CHECK constraint's text); unchanged by default.
    func describe(_ failure: SQLiteFailure, writing table: String, deleting: Bool) -> SQLiteFailure
}

/// How to find the rows whose to-one refers to an object (`StoreLayout.inverseForeignKeyCondition`).
public struct InverseForeignKeyCondition: Sendable {
    /// The condition, with the object's key bound to its `?`.
    public var byKey: String
    /// Where the rows hold another of the object's columns than its key (another program's
    /// text or UNIQUE key): that column, and the condition with the value the object's row
    /// stores there bound to `?`, so the object's own row need not be looked up.
    public var byReferencedValue: (column: String, sql: String)?

    public init(byKey: String, byReferencedValue: (column: String, sql: String)? = nil) {
        self.byKey = byKey
        self.byReferencedValue = byReferencedValue
    }
}

/// A row a save wrote, as a layout sees it: the concrete entity's name and the row's key.
public struct SavedRow: Sendable, Hashable {
    public var entity: String
    public var key: Int64
    public init(entity: String, key: Int64) {
        self.entity = entity
        self.key = key
    }
}

/// The rows one save wrote, and who saved (`StoreLayout.finishSave`).
public struct SavedRows: Sendable {
    public var inserted: [SavedRow]
    public var updated: [SavedRow]
    public var deleted: [SavedRow]
    public var author: String?
    public var contextName: String?
    public init(inserted: [SavedRow], updated: [SavedRow], deleted: [SavedRow], author: String?, contextName: String?) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.author = author
        self.contextName = contextName
    }
}

/// Where a layout's writes of one table go: the table (or `main.` table under a TEMP
/// view) and the condition finding the row whose key is bound to `?`.
public struct RowWriteTarget: Sendable, Hashable {
    public var target: String
    public var match: String
    public init(target: String, match: String) {
        self.target = target
        self.match = match
    }
}

extension StoreLayout {
    public func entityExpression(table: String, alias: String?) -> String { qualifiedEntity(alias) }
    public func versionExpression(table: String, alias: String?) -> String {
        (alias.map { $0 + "." } ?? "") + dialect.quote(versionColumn)
    }
    public func versionColumns(table: String) -> [String]? { nil }
    public var writesSystemColumns: Bool { true }
    public func keyAttributeColumn(table: String) -> String? { nil }
    public var dateEpochSince1970: Double { 0 }
    public func storedEntity(_ entityName: String) -> Value { .string(entityName) }
    public func keysHandedOutSQL(table: String) -> String? { nil }
    public func reserveKeysSQL(table: String) -> String? { nil }
    public func readExpression(table: String, column: String, alias: String) -> String { alias + "." + dialect.quote(column) }
    public func comparableExpression(table: String, column: String, alias: String) -> String { alias + "." + dialect.quote(column) }
    public func prepare(_ connection: Connection) throws(StoreError) {}
    public var initialVersion: Int64 { 1 }
    public func nextVersion(after version: Int64) -> Int64 { version + 1 }
    public func finishSave(_ db: Connection, _ save: () -> SavedRows) throws(StoreError) -> Int64? { nil }
    public var changeSource: LayoutChangeSource { .vellumHistory }
    public func readOnlyReason(table: String) -> String? { nil }
    public func keyColumns(table: String) -> [String] { keyAttributeColumn(table: table).map { [$0] } ?? [] }
    public func insertedKeySQL(table: String) -> String? { nil }
    public func digestedKeyColumns(table: String) -> [String]? { nil }
    public func digestKeyMap(table: String) -> DigestKeyMap? { nil }
    public func rowWriteTarget(table: String) -> RowWriteTarget {
        RowWriteTarget(target: dialect.quote(table), match: "\(qualifiedKey()) = ?")
    }
    public func storedForm(_ value: Value, table: String, column: String) -> Value { value }
    public func foreignKeyWriteSQL(table: String, column: String) -> String { "?" }
    public func foreignKeyAssignments(table: String, column: String) -> [(column: String, value: String)] {
        [(column, foreignKeyWriteSQL(table: table, column: column))]
    }
    public func defaultForeignKey(table: String, column: String) -> Int64? { nil }
    public func defaultForeignKeyLookup(table: String, column: String) -> (sql: String, value: Value)? { nil }
    public func inverseForeignKeyCondition(table: String, column: String) -> InverseForeignKeyCondition {
        InverseForeignKeyCondition(byKey: "\(dialect.quote(column)) = ?")
    }
    public func describe(_ failure: SQLiteFailure, writing table: String, deleting: Bool) -> SQLiteFailure { failure }

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
