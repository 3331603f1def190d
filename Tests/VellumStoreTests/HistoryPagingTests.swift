import Foundation
import Testing
@testable import VellumStore

/// Reading other writers' history page by page (`othersTransactions`), as both change
/// monitors do after each notification or tick.
@Suite struct HistoryPagingTests {
    /// Two store objects on one file: `observer` reads what `writer` (another process, as far
    /// as the observer knows) saved, 30 transactions of an insert into two entities each,
    /// and 5 saves of its own in between.
    struct Fixture {
        let dir = TempDir()
        let observer: PersistentStore
        let writer: PersistentStore

        init() throws {
            let model = try ModelBuilder()
                .entity("Item") { $0.attribute("n", .integer64) }
                .entity("Tag") { $0.attribute("label", .string) }
                .build()
            observer = try PersistentStore(url: dir.file("h.sqlite"), model: model)
            writer = try PersistentStore(url: dir.file("h.sqlite"), model: model)
            let theirs = try ManagedObjectContext(store: writer)
            let ours = try ManagedObjectContext(store: observer)
            for i in 0..<30 {
                try theirs.insert("Item", values: ["n": .integer(Int64(i))])
                try theirs.insert("Tag", values: ["label": .string("t\(i)")])
                try theirs.save()
                if i % 6 == 0 {
                    try ours.insert("Item", values: ["n": .integer(Int64(-i))])
                    try ours.save()
                }
            }
        }

        /// The writer's transactions (two changes each; the observer's have one) as one
        /// unpaged read sees them: sequence and change count.
        func expected() throws -> [[Int64]] {
            try observer.history(after: .start, using: observer.makeReaderConnection())
                .filter { $0.changes.count == 2 }
                .map { [$0.sequence ?? -1, Int64($0.changes.count)] }
        }
    }

    /// The regression: the connection was lost on a later page (a server restart mid-read).
    /// The token had already moved past the earlier pages, whose transactions were dropped
    /// with the error — the view context never saw them (the PostgreSQL multi-process test's
    /// observer, once, ended different from the store).
    @Test func aHistoryReadFailingOnALaterPageLosesNothing() throws {
        let f = try Fixture()
        let c = try f.observer.makeReaderConnection()
        var token = HistoryToken.start
        var calls = 0
        #expect(throws: StoreError.self) {
            _ = try f.observer.othersTransactions(after: &token, using: c) { position in
                calls += 1
                if calls == 3 { throw StoreError.sqlite(SQLiteFailure(code: 10, extendedCode: 10, message: "disk I/O error (injected)")) }
                return try f.observer.historyPage(after: position, limit: 4, using: c)
            }
        }
        #expect(token == .start, "a failed read must leave the token where it was")
        let read = try f.observer.othersTransactions(after: &token, using: c, pageLimit: 4)
        #expect(read.map { [$0.sequence ?? -1, Int64($0.changes.count)] } == (try f.expected()))
        #expect(read.count == 30, "every one of the writer's saves, none of the observer's own")
        #expect(token == (try f.observer.currentHistoryToken(using: c)))
    }

    /// A page ends after a number of rows, which may cut a transaction in two or end a page
    /// of fewer than 100 transactions while more follow; reading went on only after a page of
    /// 100 transactions, so what followed waited for the next commit.
    @Test func transactionsCutByPagesArriveWholeAndReadingGoesOnToTheEnd() throws {
        let f = try Fixture()
        let c = try f.observer.makeReaderConnection()
        for limit in [1, 2, 3, 7, 10_000] {
            var token = HistoryToken.start
            let read = try f.observer.othersTransactions(after: &token, using: c, pageLimit: limit)
            #expect(read.map { [$0.sequence ?? -1, Int64($0.changes.count)] } == (try f.expected()), "page of \(limit) rows")
            #expect(token == (try f.observer.currentHistoryToken(using: c)), "page of \(limit) rows")
            // The observer's own saves were consumed by the first read: mark them again.
            for t in try f.observer.history(after: .start, using: c) where t.changes.count == 1 {
                if let s = t.sequence { f.observer.ownTransactions.insert(s) }
            }
        }
    }
}
