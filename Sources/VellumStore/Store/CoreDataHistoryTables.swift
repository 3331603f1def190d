import Foundation

/// Core Data's persistent-history tables in a store whose app tracks history (facts document):
/// `ATRANSACTION` (time, and author/bundle/context/process as `Z_PK`s of `ATRANSACTIONSTRING`),
/// `ACHANGE` (one row per changed object). Known from the schema, so what Vellum writes uses
/// only the columns the file has.
public struct CoreDataHistoryTables: Sendable, Hashable {
    public static let transaction = "ATRANSACTION", change = "ACHANGE", strings = "ATRANSACTIONSTRING"
    /// `Z_PRIMARYKEY.Z_NAME` of the history entities, and the numbers Core Data gives them.
    static let entityNames = [change: "CHANGE", transaction: "TRANSACTION", strings: "TRANSACTIONSTRING"]
    static let defaultNumbers: [String: Int64] = [change: 16001, transaction: 16002, strings: 16003]
    /// What a change row needs (the rest, such as `ZCOLUMNS` and tombstones, is left NULL).
    static let requiredChangeColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZCHANGETYPE", "ZENTITY", "ZENTITYPK", "ZTRANSACTIONID"]
    static let requiredTransactionColumns = ["Z_PK", "Z_ENT", "Z_OPT", "ZTIMESTAMP"]

    /// Upper-cased column names of `ATRANSACTION` and `ACHANGE`.
    let transactionColumns: Set<String>
    let changeColumns: Set<String>
    let hasStrings: Bool

    /// Nil when the store records no history (neither table).
    init?(schema: ForeignSchema) {
        let t = schema.table(named: Self.transaction), c = schema.table(named: Self.change)
        guard t != nil || c != nil else { return nil }
        transactionColumns = Set(t?.columns.map { $0.name.uppercased() } ?? [])
        changeColumns = Set(c?.columns.map { $0.name.uppercased() } ?? [])
        hasStrings = schema.table(named: Self.strings)?.column(named: "ZNAME") != nil
    }

    /// Why Vellum cannot write history rows Core Data would read, or nil.
    var unwritable: String? {
        let missing = Self.requiredTransactionColumns.filter { !transactionColumns.contains($0) }.map { "\(Self.transaction).\($0)" }
            + Self.requiredChangeColumns.filter { !changeColumns.contains($0) }.map { "\(Self.change).\($0)" }
        guard !missing.isEmpty else { return nil }
        return "persistent-history tables lack \(missing.joined(separator: ", ")), which Core Data's history rows need"
    }

    /// Identifies a history transaction this store object wrote (`OwnTransactions`): its key
    /// and exact time, so a key freed by a rolled-back save and taken by another process is not mistaken for ours.
    static func ownKey(transaction: Int64, timestamp: Double) -> Int64 {
        Int64(bitPattern: (UInt64(bitPattern: transaction) &* 0x9E37_79B9_7F4A_7C15) ^ timestamp.bitPattern)
    }
}
