import Foundation

/// A layout's tables and columns in a PostgreSQL schema: the same names as
/// `base` (by default `NativeLayout`), spelled by `PostgreSQLDialect`, created by
/// `PostgreSQLSchema` with typed columns and real constraints.
public final class PostgreSQLLayout: StoreLayout {
    public let base: any StoreLayout
    public let dialect: any SQLDialect = PostgreSQLDialect()

    public init(base: any StoreLayout) { self.base = base }

    public convenience init(model: ManagedObjectModel) { self.init(base: NativeLayout(model: model)) }

    public var model: ManagedObjectModel { base.model }
    public func mapping(for entityName: String) -> EntityMapping? { base.mapping(for: entityName) }
    public var primaryKeyColumn: String { base.primaryKeyColumn }
    public var entityColumn: String { base.entityColumn }
    public var versionColumn: String { base.versionColumn }
    public var joinTables: [JoinTable] { base.joinTables }
    public func joinTable(named table: String) -> JoinTable? { base.joinTable(named: table) }

    public func schemaSQL() -> [String] { PostgreSQLSchema(layout: self).statements() }

    /// Moves the key column's identity sequence past the keys a save handed out, so that
    /// rows other programs insert with the default key never take one (nor do later saves).
    public func keysHandedOutSQL(table: String) -> String? {
        "SELECT setval(pg_get_serial_sequence(quote_ident($1), \(dialect.literal(primaryKeyColumn))), $2)"
    }

    /// Past both the key column's identity sequence and the largest row.
    public func largestKeyEverSQL(table: String) -> String {
        "SELECT " + largestKeyEver(table: table)
    }

    /// One round trip instead of `largestKeyEverSQL` then `keysHandedOutSQL`: the sequence
    /// is moved past the largest key ever plus the count, and the last key returned.
    public func reserveKeysSQL(table: String) -> String? {
        "SELECT setval(pg_get_serial_sequence(quote_ident($1), \(dialect.literal(primaryKeyColumn))), \(largestKeyEver(table: table)) + $2)"
    }

    private func largestKeyEver(table: String) -> String {
        "GREATEST(COALESCE((SELECT max(\(dialect.quote(primaryKeyColumn))) FROM \(dialect.quote(table))), 0), "
            + "COALESCE(pg_sequence_last_value(pg_get_serial_sequence(quote_ident($1), \(dialect.literal(primaryKeyColumn)))::regclass), 0))"
    }
}
