import Foundation

/// One page of history rows: the transactions they make up (the last possibly cut short),
/// the token of the last row read, and whether history had no more rows.
struct HistoryPage {
    var transactions: [HistoryTransaction]
    var end: HistoryToken?
    var isLast: Bool
}

extension PersistentStore {
    /// What other writers committed after `token`, oldest first (this store object's
    /// own saves skipped), read through `connection` page by page until history ends;
    /// moves `token` past what was read. Shared by the file and server change monitors.
    ///
    /// All or nothing: when a page fails (a connection lost mid-read), `token` and the
    /// record of own saves stay as they were, so the caller's next read returns the same
    /// transactions again — before, the pages read until then were lost for good.
    /// `pages` reads one page (tests put a failure there).
    func othersTransactions(after token: inout HistoryToken, using connection: Connection, pageLimit: Int = 10_000,
                            pages: ((HistoryToken) throws -> HistoryPage)? = nil) throws -> [HistoryTransaction] {
        let readPage = pages ?? { try self.historyPage(after: $0, limit: pageLimit, using: connection) }
        var read: [HistoryTransaction] = []
        var position = token
        while true {
            let page = try readPage(position)
            for t in page.transactions {
                // A transaction cut at the end of the previous page goes on here.
                if let seq = t.sequence, let last = read.last, last.sequence == seq {
                    read[read.count - 1].changes += t.changes
                    read[read.count - 1].token = t.token
                } else {
                    read.append(t)
                }
            }
            if let end = page.end { position = end }
            if page.isLast || page.end == nil { break }
        }
        token = position
        return read.filter { t in t.sequence.map { !ownTransactions.consume($0) } ?? true }
    }
}
