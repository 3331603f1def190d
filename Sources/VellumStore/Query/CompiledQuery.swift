import Foundation

/// SQL fragments for one fetch, to be assembled as
///
///     SELECT t0.<key>, … FROM "<table>" AS t0 <joins> WHERE <whereClause> ORDER BY <orderBy>
///
/// The main table is aliased `t0`; the system columns and the SQL spelling are
/// the layout's. `whereClause` already includes the `t0.<entity> IN (…)` filter when the entity shares its root's table with
/// other entities. Parameters are numbered (`?1` … `?N`, possibly used more than
/// once) and all live in `whereClause`; bind `bindings` in order with
/// `Statement.bind(_:)`. `joins` and `orderBy` hold no parameters.
public struct CompiledQuery: Sendable {
    /// The root entity's table.
    public var table: String
    public var whereClause: String
    /// LEFT JOINs for to-one key paths (may be empty).
    public var joins: String
    /// Always ends with the key column so the order is total.
    public var orderBy: String
    public var bindings: [Value]
    /// The layout the query was compiled for (its system columns and dialect).
    public let layout: any StoreLayout

    public init(table: String, whereClause: String, joins: String, orderBy: String, bindings: [Value], layout: any StoreLayout) {
        self.table = table
        self.whereClause = whereClause
        self.joins = joins
        self.orderBy = orderBy
        self.bindings = bindings
        self.layout = layout
    }

    /// Narrows the query to rows of exactly `entityName` (no sub-entities).
    public mutating func restrict(toEntity entityName: String) {
        bindings.append(.string(entityName))
        whereClause = "(\(whereClause)) AND \(layout.entityExpression(table: table, alias: "t0")) = \(layout.dialect.placeholder(bindings.count))"
    }

    /// Narrows the query to rows whose `term` comes no later than `bound` in the order the
    /// query sorts it — ascending with NULL first, or descending with NULL last — so a
    /// first page of a list led by `term` reads only the rows it can reach. The term is
    /// text compared as text (with the comparison `ORDER BY` uses).
    public mutating func restrict(term: String, upTo bound: Value, ascending: Bool) {
        if bound.isNull {
            // NULL first ascending: only NULLs; last descending: every row.
            if ascending { whereClause = "(\(whereClause)) AND \(term) IS NULL" }
            return
        }
        bindings.append(bound)
        let p = layout.dialect.placeholder(bindings.count)
        whereClause = ascending ? "(\(whereClause)) AND (\(term) IS NULL OR \(term) <= \(p))" : "(\(whereClause)) AND \(term) >= \(p)"
    }

    /// The whole statement, selecting `columns` (default: the primary key).
    public func selectSQL(columns: String? = nil, limit: Int? = nil, offset: Int? = nil) -> String {
        var sql = "SELECT \(columns ?? layout.qualifiedKey("t0")) FROM \(layout.dialect.quote(table)) AS t0"
        if !joins.isEmpty { sql += " " + joins }
        sql += " WHERE " + whereClause + " ORDER BY " + orderBy
        return sql + layout.dialect.limitOffset(limit: limit, offset: offset)
    }

    /// `SELECT COUNT(*) …` with the same filter. Without a filter there is no WHERE at
    /// all: SQLite counts a bare `COUNT(*)` from the b-tree's pages (`OP_Count`), while
    /// `WHERE 1` makes it step and aggregate every row (a 1M-row table: 2× the time).
    public func countSQL() -> String {
        var sql = "SELECT COUNT(*) FROM \(layout.dialect.quote(table)) AS t0"
        if !joins.isEmpty { sql += " " + joins }
        return whereClause == layout.dialect.trueCondition ? sql : sql + " WHERE " + whereClause
    }
}
