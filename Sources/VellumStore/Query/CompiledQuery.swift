import Foundation

/// SQL fragments for one fetch, to be assembled as
///
///     SELECT t0."_pk", … FROM "<table>" AS t0 <joins> WHERE <whereClause> ORDER BY <orderBy>
///
/// The main table is aliased `t0`. `whereClause` already includes the
/// `t0."_entity" IN (…)` filter when the entity shares its root's table with
/// other entities. Parameters are numbered (`?1` … `?N`, possibly used more than
/// once) and all live in `whereClause`; bind `bindings` in order with
/// `Statement.bind(_:)`. `joins` and `orderBy` hold no parameters.
public struct CompiledQuery: Sendable, Hashable {
    /// The root entity's table.
    public var table: String
    public var whereClause: String
    /// LEFT JOINs for to-one key paths (may be empty).
    public var joins: String
    /// Always ends with `t0."_pk"` so the order is total.
    public var orderBy: String
    public var bindings: [Value]

    public init(table: String, whereClause: String, joins: String, orderBy: String, bindings: [Value]) {
        self.table = table
        self.whereClause = whereClause
        self.joins = joins
        self.orderBy = orderBy
        self.bindings = bindings
    }

    /// The whole statement, selecting `columns` (default: the primary key).
    public func selectSQL(columns: String = "t0.\"_pk\"", limit: Int? = nil, offset: Int? = nil) -> String {
        var sql = "SELECT \(columns) FROM \(quoteIdentifier(table)) AS t0"
        if !joins.isEmpty { sql += " " + joins }
        sql += " WHERE " + whereClause + " ORDER BY " + orderBy
        if let limit { sql += " LIMIT \(limit)" }
        if let offset { sql += (limit == nil ? " LIMIT -1" : "") + " OFFSET \(offset)" }
        return sql
    }

    /// `SELECT COUNT(*) …` with the same filter.
    public func countSQL() -> String {
        var sql = "SELECT COUNT(*) FROM \(quoteIdentifier(table)) AS t0"
        if !joins.isEmpty { sql += " " + joins }
        return sql + " WHERE " + whereClause
    }
}
