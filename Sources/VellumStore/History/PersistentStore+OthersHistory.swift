import Foundation

extension PersistentStore {
    /// What other writers committed after `token`, oldest first (this store object's
    /// own saves skipped), read through `connection`; moves `token` past what was read.
    /// Shared by the file and server change monitors.
    func othersTransactions(after token: inout HistoryToken, using connection: Connection) throws -> [HistoryTransaction] {
        var transactions: [HistoryTransaction] = []
        while true {
            let batch = try history(after: token, using: connection)
            guard let last = batch.last else { break }
            token = last.token
            transactions += batch.filter { t in t.sequence.map { !ownTransactions.consume($0) } ?? true }
            if batch.count < 100 { break }
        }
        return transactions
    }
}
