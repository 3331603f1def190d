import Foundation

/// Core Data's persistent history as another process left it: each `ATRANSACTION` row after
/// the last one read, with its `ACHANGE` rows (`ZCHANGETYPE` 0 insert, 1 update, 2 delete;
/// `ZENTITY` the `Z_ENT`, `ZENTITYPK` the `Z_PK`), its time (`ZTIMESTAMP`, seconds since 2001)
/// and its author (`ZAUTHORTS`, a `Z_PK` of `ATRANSACTIONSTRING`). Used on the monitor's queue.
final class CoreDataHistoryReading {
    static let transactionTable = CoreDataHistoryTables.transaction, changeTable = CoreDataHistoryTables.change
    static let stringTable = CoreDataHistoryTables.strings
    private(set) var last: Int64
    private let sql: String

    static func isRecorded(_ c: Connection) throws(StoreError) -> Bool {
        guard try c.tableExists(transactionTable) else { return false }
        return try c.tableExists(changeTable)
    }

    init(_ c: Connection) throws(StoreError) {
        last = try c.scalarInt("SELECT max(Z_PK) FROM \(Self.transactionTable)") ?? 0
        let columns = Set(try c.rows("SELECT name FROM pragma_table_info('\(Self.transactionTable)')").compactMap { $0[0].stringValue?.uppercased() })
        let hasStrings = try c.tableExists(Self.stringTable)
        let author = columns.contains("ZAUTHORTS") && hasStrings ? "(SELECT ZNAME FROM \(Self.stringTable) WHERE Z_PK = t.ZAUTHORTS)" : "NULL"
        let time = columns.contains("ZTIMESTAMP") ? "t.ZTIMESTAMP" : "NULL"
        sql = """
            SELECT t.Z_PK, \(time), \(author), c.ZCHANGETYPE, c.ZENTITY, c.ZENTITYPK FROM \(Self.transactionTable) t
            LEFT JOIN \(Self.changeTable) c ON c.ZTRANSACTIONID = t.Z_PK WHERE t.Z_PK > ?1 ORDER BY t.Z_PK, c.Z_PK
            """
    }

    /// The transactions after the last one read, except those `isOwn` claims (Vellum's own
    /// saves, by `CoreDataHistoryTables.ownKey`).
    func transactionsAfterLast(_ c: Connection, objectID: (Int64, Int64) -> ObjectID?,
                               isOwn: (Int64) -> Bool) throws(StoreError) -> [HistoryTransaction] {
        var out: [HistoryTransaction] = []
        var newest = last
        for row in try c.rows(sql, [.integer(last)]) {
            let number = row[0].integerValue ?? 0
            if number != newest {
                newest = number
                guard !isOwn(CoreDataHistoryTables.ownKey(transaction: number, timestamp: row[1].doubleValue ?? .nan)) else { continue }
                let time = row[1].doubleValue.map { Date(timeIntervalSinceReferenceDate: $0) } ?? Date()
                out.append(HistoryTransaction(sequence: nil, timestamp: time, author: row[2].stringValue, processID: nil, changes: [],
                                              token: HistoryToken(rawValue: number)))
            } else if out.last?.token.rawValue != number {
                continue   // a change of one of our own transactions
            }
            guard let type = row[3].integerValue, let kind = HistoryChange.Kind(rawValue: Int(type)),
                  let entity = row[4].integerValue, let key = row[5].integerValue, let id = objectID(entity, key) else { continue }
            out[out.count - 1].changes.append(HistoryChange(objectID: id, kind: kind, changedKeys: [], tombstone: [:]))
        }
        last = newest
        return out
    }
}
