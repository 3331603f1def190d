import Foundation

/// How a relationship's value is stored.
public enum RelationshipStorage: Sendable, Hashable {
    /// A to-one held in a column of the source row (the target's `_pk`).
    case foreignKey(column: String)
    /// Rows of the destination table whose `column` holds the source's `_pk`
    /// (the to-many side of one-to-many, or the non-owning side of one-to-one).
    /// `positionColumn` orders an ordered to-many.
    case inverseForeignKey(table: String, column: String, positionColumn: String?)
    /// A many-to-many join table; `sourceColumn` holds this side's `_pk`.
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
}

/// Maps a model onto tables. This is the one place that knows the store's
/// layout: contexts, queries and history ask it for table and column names,
/// so another layout (Core Data's `Z_` tables) can be added beside it.
public protocol StoreLayout: Sendable {
    var model: ManagedObjectModel { get }
    func mapping(for entityName: String) -> EntityMapping?
    /// SQL statements that create the schema in an empty database.
    func schemaSQL() -> [String]
    /// Column names of the system columns.
    var primaryKeyColumn: String { get }
    var entityColumn: String { get }
    var versionColumn: String { get }
}
