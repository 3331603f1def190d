import Foundation
import Testing
@testable import VellumStore

/// For the PostgreSQL-only suites: a shop store in a new schema of the throwaway cluster,
/// and its rows read with a plain libpq connection.
enum PostgreSQLShop {
    /// A new schema in a new database: a store is created there on first open.
    static func newStoreURL() throws -> URL {
        try #require(URL(string: try PostgreSQLCluster.shared().makeSchema("shop")))
    }

    static func open(_ url: URL, model: ManagedObjectModel? = nil) throws -> PersistentStore {
        try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: model ?? Fixtures.shopModel())
    }

    /// The rows of `sql` in the store's schema, each as its text columns joined by `|` (NULL: empty).
    static func psql(_ url: URL, _ sql: String) throws -> [String] {
        try PGConnection(url: url.absoluteString).rows(sql, format: .text).map { row in
            row.map { $0.stringValue ?? "" }.joined(separator: "|")
        }
    }
}
