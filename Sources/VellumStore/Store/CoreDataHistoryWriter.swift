import Foundation

/// Records a save in Core Data's persistent-history tables, inside the save's transaction, as
/// a Core Data app does (facts document): one `ATRANSACTION` row (time in seconds since 2001;
/// author, bundle, context and process names as `Z_PK`s of `ATRANSACTIONSTRING`, added when new)
/// and one `ACHANGE` row per object (`ZCHANGETYPE` 0 insert, 1 update, 2 delete; `ZENTITY` the
/// `Z_ENT`; `ZENTITYPK`), keys taken from each history entity's `Z_MAX`, which moves with them.
struct CoreDataHistoryWriter {
    typealias Tables = CoreDataHistoryTables
    let tables: Tables
    let db: Connection

    struct Change {
        var kind: Int64
        var entity: Int64
        var key: Int64
    }

    /// Writes the rows and returns the transaction's own key (`CoreDataHistoryTables.ownKey`).
    func record(_ changes: [Change], author: String?, contextName: String?) throws(StoreError) -> Int64 {
        var numbers = Tables.defaultNumbers
        let named = Dictionary(Tables.entityNames.map { ($0.value, $0.key) }, uniquingKeysWith: { a, _ in a })
        for row in try db.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY WHERE Z_NAME IN ('CHANGE', 'TRANSACTION', 'TRANSACTIONSTRING')") {
            if let name = row[1].stringValue, let table = named[name], let n = row[0].integerValue { numbers[table] = n }
        }
        let timestamp = Date().timeIntervalSinceReferenceDate
        var columns = ["Z_PK", "Z_ENT", "Z_OPT", "ZTIMESTAMP"]
        let transaction = try keys(Tables.transaction, numbers, count: 1)
        var values: [Value] = [.integer(transaction), .integer(numbers[Tables.transaction]!), .integer(1), .double(timestamp)]
        let names: [(String, String?)] = [("ZAUTHORTS", author), ("ZBUNDLEIDTS", "vellum"),
                                          ("ZCONTEXTNAMETS", contextName), ("ZPROCESSIDTS", ProcessInfo.processInfo.processName)]
        for (column, name) in names where tables.hasStrings && tables.transactionColumns.contains(column) {
            guard let name else { continue }
            columns.append(column)
            values.append(.integer(try string(name, numbers)))
        }
        let placeholders = SQLiteDialect().placeholders(columns.count)
        try db.run("INSERT INTO \(Tables.transaction) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))", values)
        var key = try keys(Tables.change, numbers, count: Int64(changes.count))
        let insert = try db.cachedStatement("INSERT INTO \(Tables.change) (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (?1, ?2, 1, ?3, ?4, ?5, ?6)")
        for c in changes {
            insert.reset()
            try insert.bind([.integer(key), .integer(numbers[Tables.change]!), .integer(c.kind), .integer(c.entity), .integer(c.key), .integer(transaction)])
            try insert.runToCompletion()
            key += 1
        }
        return Tables.ownKey(transaction: transaction, timestamp: timestamp)
    }

    /// The first of `count` new keys of a history table, past its `Z_MAX` and its largest row;
    /// `Z_MAX` is moved past them in the same transaction.
    private func keys(_ table: String, _ numbers: [String: Int64], count: Int64) throws(StoreError) -> Int64 {
        let number = numbers[table]!
        let first = 1 + (try db.scalarInt("SELECT max(coalesce((SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?1), 0), coalesce((SELECT max(Z_PK) FROM \(table)), 0))",
                                          [.integer(number)]) ?? 0)
        if count > 0 { try db.run("UPDATE Z_PRIMARYKEY SET Z_MAX = ?1 WHERE Z_ENT = ?2", [.integer(first + count - 1), .integer(number)]) }
        return first
    }

    /// The `Z_PK` of `name` in `ATRANSACTIONSTRING`, added when new.
    private func string(_ name: String, _ numbers: [String: Int64]) throws(StoreError) -> Int64 {
        if let key = try db.scalarInt("SELECT Z_PK FROM \(Tables.strings) WHERE ZNAME = ?1", [.string(name)]) { return key }
        let key = try keys(Tables.strings, numbers, count: 1)
        try db.run("INSERT INTO \(Tables.strings) (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?1, ?2, 1, ?3)", [.integer(key), .integer(numbers[Tables.strings]!), .string(name)])
        return key
    }
}
