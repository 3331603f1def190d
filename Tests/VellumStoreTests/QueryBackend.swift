import Foundation
import Testing
@testable import VellumStore

/// The engines a query test runs against: an in-memory SQLite database, or a
/// fresh schema of the test process's PostgreSQL cluster.
enum QueryBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    func open(_ model: ManagedObjectModel) throws -> (any QueryDatabase, any StoreLayout) {
        switch self {
        case .sqlite:
            return (try Connection(path: ":memory:", options: .init(create: true, journalModeWAL: false)), NativeLayout(model: model))
        case .postgresql:
            return (try PGConnection(url: try PostgreSQLCluster.shared().makeSchema()), PostgreSQLLayout(model: model))
        }
    }

    /// `p` with what this engine's regular expressions cannot spell replaced:
    /// PostgreSQL has no `\p{…}` classes (docs/postgresql.md).
    func expressible(_ p: QueryPredicate) -> QueryPredicate {
        guard self == .postgresql else { return p }
        func expression(_ e: QueryExpression) -> QueryExpression {
            switch e {
            case .constant(.string("\\p{L}+")): return .constant(.string("[^0-9 ]+"))
            case .subqueryCount(let c, let v, let inner): return .subqueryCount(collection: c, variable: v, predicate: predicate(inner))
            case .list(let items): return .list(items.map(expression))
            default: return e
            }
        }
        func predicate(_ p: QueryPredicate) -> QueryPredicate {
            switch p {
            case .and(let a, let b): return .and(predicate(a), predicate(b))
            case .or(let a, let b): return .or(predicate(a), predicate(b))
            case .not(let a): return .not(predicate(a))
            case .constant: return p
            case .comparison(var c):
                c.lhs = expression(c.lhs)
                c.rhs = expression(c.rhs)
                return .comparison(c)
            }
        }
        return predicate(p)
    }
}

/// What the query tests ask of a database connection.
protocol QueryDatabase {
    func execute(_ sql: String) throws(StoreError)
    func run(_ sql: String, _ values: [Value]) throws(StoreError)
    func rows(_ sql: String, _ values: [Value]) throws(StoreError) -> [[Value]]
}

extension Connection: QueryDatabase {}

extension PGConnection: QueryDatabase {
    func run(_ sql: String, _ values: [Value]) throws(StoreError) { try query(sql, values) }
    func rows(_ sql: String, _ values: [Value]) throws(StoreError) -> [[Value]] { try rows(sql, values, format: .binary) }
}
