import Foundation

extension PersistentStore {
    /// Runs `body` with the writer lock held and one write transaction shared by
    /// every write that `body` makes on this thread through the store (group
    /// commit): each save or `writeTransaction` runs in its own savepoint, records
    /// its own history transaction, and is told to save subscribers only after the
    /// shared COMMIT, in order. A write that fails rolls back its savepoint alone.
    /// The transaction begins at the first write (reading takes no file lock), so a
    /// write that cannot take the file's lock fails with `busy` alone. Throws (and
    /// keeps nothing) when the transaction cannot commit, or SQLite ended it on an
    /// error inside.
    func writeGroup(_ body: (Connection) throws -> Void) throws {
        if isReadOnly { throw StoreError.readOnly(path: path) }
        let events: [(DidSave, ObjectIdentifier)] = try writerLock.withLock { _ in
            group.begin()
            defer { group.end() }
            do {
                try body(writer)
                if let failure = group.failure { throw failure }
                if group.began { try writer.executeCached("COMMIT") }
            } catch {
                for t in group.transactions { _ = ownTransactions.consume(t) }
                if writer.isInTransaction { try? writer.execute("ROLLBACK") }
                throw error
            }
            return group.events
        }
        for (event, source) in events { broadcast.publish(event, from: source) }
    }

    /// One caller's part of the group (a write-queue block): if it writes, its writes
    /// share one savepoint, rolled back when `body` throws.
    func groupBlock<T>(_ body: () throws -> T) throws -> T {
        group.block = GroupCommit.Block(events: group.events.count, transactions: group.transactions.count)
        defer { group.block = nil }
        do {
            let result = try body()
            if group.block?.isOpen == true { try writer.executeCached("RELEASE \(GroupCommit.blockSavepoint)") }
            return result
        } catch {
            if let block = group.block, block.isOpen {
                rollBack(to: GroupCommit.blockSavepoint, events: block.events, transactions: block.transactions, after: error)
            }
            throw error
        }
    }

    /// One write inside the group: a savepoint with its own history transaction.
    func groupSavepoint<T>(author: String?, recordingHistory: Bool, _ body: (Connection) throws -> T) throws -> T {
        try openGroupTransaction()
        let name = "vellum_group_\(group.depth)"
        try writer.executeCached("SAVEPOINT \(name)")
        group.depth += 1
        let outer = pendingHistory
        pendingHistory = recordingHistory && hasHistory ? PendingHistory(author: author) : nil
        let marks = (events: group.events.count, transactions: group.transactions.count)
        defer {
            pendingHistory = outer
            group.depth -= 1
        }
        do {
            let result = try body(writer)
            if let t = pendingHistory?.sequence {
                // Marked before COMMIT so the monitor never mistakes it for another writer's.
                ownTransactions.insert(t)
                group.transactions.append(t)
            }
            try writer.executeCached("RELEASE \(name)")
            return result
        } catch {
            rollBack(to: name, events: marks.events, transactions: marks.transactions, after: error)
            throw error
        }
    }

    /// Begins the shared transaction at the group's first write, and the block's savepoint at its first.
    private func openGroupTransaction() throws {
        if let failure = group.failure { throw failure }
        if !group.began {
            try beginImmediateWithRetry()
            group.began = true
            do { try refuseIfMigratedElsewhere() } catch {
                group.failure = error
                throw error
            }
        }
        if let block = group.block, !block.isOpen {
            try writer.executeCached("SAVEPOINT \(GroupCommit.blockSavepoint)")
            group.block?.isOpen = true
        }
    }

    /// Undoes a savepoint: its rows, its history transactions and its did-save events.
    private func rollBack(to name: String, events: Int, transactions: Int, after error: any Error) {
        for t in group.transactions[transactions...] { _ = ownTransactions.consume(t) }
        group.transactions.removeSubrange(transactions...)
        group.events.removeSubrange(events...)
        if !writer.isInTransaction {
            // SQLite ended the shared transaction itself: earlier savepoints are gone too.
            group.failure = group.failure ?? error
            return
        }
        do {
            try writer.executeCached("ROLLBACK TO \(name)")
            try writer.executeCached("RELEASE \(name)")
        } catch let rollback {
            group.failure = group.failure ?? rollback
        }
    }
}
