import Foundation

/// SQL that saves write with, built once per store instead of once per save.
///
/// The write queue saves a fresh context per block, so a cache inside one save
/// (`SaveWriter`) is empty every time; quoting and joining an INSERT's column list
/// cost more than SQLite's own work for a one-row save. Entities are keyed by
/// identity: the store's model holds them for the store's life, and a store's
/// layout never changes. Lookups are O(1); the lock is uncontended (saves hold
/// the store's writer lock).
final class SaveSQLCache: Sendable {
    /// Attribute and to-one relationship indices with the columns they are written to.
    typealias Columns = (attributes: [(Int, String)], foreignKeys: [(Int, String)])

    /// An INSERT's text and the columns it binds, in order.
    struct InsertPlan: Sendable {
        let sql: String
        let columns: Columns
    }

    private let insertPlans = Locked<[ObjectIdentifier: InsertPlan]>([:])
    private let largestKeySQL = Locked<[String: String]>([:])

    func insertPlan(for entity: Entity, build: () -> InsertPlan) -> InsertPlan {
        Self.value(in: insertPlans, for: ObjectIdentifier(entity), build: build)
    }

    /// `StoreLayout.largestKeyEverSQL(table:)`, per table.
    func largestKeyEverSQL(table: String, build: () -> String) -> String {
        Self.value(in: largestKeySQL, for: table, build: build)
    }

    /// The value kept for `key`, built and kept on first use.
    private static func value<Key: Hashable & Sendable, Value: Sendable>(
        in cache: borrowing Locked<[Key: Value]>, for key: Key, build: () -> Value
    ) -> Value {
        cache.withLock { values in
            if let value = values[key] { return value }
            let value = build()
            values[key] = value
            return value
        }
    }
}
