import Foundation

/// Another process's writes to a Core Data store, object by object (`docs/core-data-stores.md`).
/// From Core Data's persistent-history tables when the store has them (`ATRANSACTION`/`ACHANGE`
/// rows after the last one read); otherwise from the rows' `Z_OPT` versions, which every Core
/// Data save bumps: a scan of `Z_PK, Z_ENT, Z_OPT` per table against the last scan gives the
/// inserted (new keys), updated (moved version) and deleted (missing keys) objects.
/// Used only on the monitor's queue.
final class CoreDataChangeReader {
    private let store: PersistentStore
    /// Entity name per `Z_ENT`.
    private let entities: [Int64: String]
    private let source: Source

    private enum Source {
        /// The last `ATRANSACTION.Z_PK` read, and how authors are stored.
        case history(CoreDataHistoryReading)
        /// `Z_OPT` and `Z_ENT` per key, per root table, at the last scan.
        case versions(VersionScan)
    }

    init(store: PersistentStore, rows: RowVersionSource, connection c: Connection) throws(StoreError) {
        self.store = store
        entities = rows.entityNames
        if rows.hasCoreDataHistory, try CoreDataHistoryReading.isRecorded(c) {
            source = .history(try CoreDataHistoryReading(c))
        } else {
            source = .versions(try VersionScan(tables: rows.tables, layout: store.layout, connection: c))
        }
    }

    /// What other writers committed since the last call; empty when nothing was seen
    /// object by object (a write that bumped no `Z_OPT`, or recorded no history).
    func read(_ c: Connection) throws(StoreError) -> [HistoryTransaction] {
        switch source {
        case .history(let history):
            return try history.transactionsAfterLast(c, objectID: objectID, isOwn: store.ownTransactions.consume)
        case .versions(let scan):
            let changes = try scan.changes(c).compactMap { change -> HistoryChange? in
                guard let id = objectID(change.entity, change.key) else { return nil }
                return HistoryChange(objectID: id, kind: change.kind, changedKeys: [], tombstone: [:])
            }
            guard !changes.isEmpty else { return [] }
            return [HistoryTransaction(sequence: nil, timestamp: Date(), author: nil, processID: nil, changes: changes,
                                       token: HistoryToken(rawValue: scan.scans))]
        }
    }

    private func objectID(_ entity: Int64, _ key: Int64) -> ObjectID? {
        entities[entity].map { store.objectID(entity: $0, primaryKey: key) }
    }
}

/// `Z_PK → (Z_ENT, Z_OPT)` per root table at the last scan, and the differences of a new scan.
final class VersionScan {
    struct Change {
        var entity: Int64
        var key: Int64
        var kind: HistoryChange.Kind
    }

    private let queries: [(table: String, sql: String)]
    private var rows: [String: [Int64: (entity: Int64, version: Int64)]] = [:]
    /// How many scans found changes (the token of the transaction they make).
    private(set) var scans: Int64 = 0

    init(tables: [String], layout: any StoreLayout, connection c: Connection) throws(StoreError) {
        queries = tables.map { ($0, "SELECT \(layout.qualifiedSystemColumns()) FROM \(layout.dialect.quote($0))") }
        for (table, sql) in queries { rows[table] = try Self.scan(sql, c) }
    }

    private static func scan(_ sql: String, _ c: Connection) throws(StoreError) -> [Int64: (entity: Int64, version: Int64)] {
        let s = try c.prepare(sql)
        var out: [Int64: (entity: Int64, version: Int64)] = [:]
        while try s.step() { out[s.int64(0)] = (s.int64(1), s.int64(2)) }
        return out
    }

    func changes(_ c: Connection) throws(StoreError) -> [Change] {
        var changes: [Change] = []
        var scanned: [String: [Int64: (entity: Int64, version: Int64)]] = [:]
        // Every table is read before any is remembered: a failed read leaves the last scan whole.
        for (table, sql) in queries {
            let now = try Self.scan(sql, c)
            let before = rows[table] ?? [:]
            for (key, row) in now {
                if let old = before[key] {
                    if old.version != row.version { changes.append(Change(entity: row.entity, key: key, kind: .update)) }
                } else {
                    changes.append(Change(entity: row.entity, key: key, kind: .insert))
                }
            }
            for (key, row) in before where now[key] == nil { changes.append(Change(entity: row.entity, key: key, kind: .delete)) }
            scanned[table] = now
        }
        rows = scanned
        if !changes.isEmpty { scans += 1 }
        return changes.sorted { ($0.entity, $0.key) < ($1.entity, $1.key) }
    }
}
