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
