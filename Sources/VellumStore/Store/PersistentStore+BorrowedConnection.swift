import Foundation

extension PersistentStore {
    /// A store over a connection whose write transaction another owns (a migration's,
    /// `MigrationStageContext.store`): `model` is taken as given (the metadata may still
    /// name the other model while the schema changes), and every write made through it
    /// inside `joiningOpenTransaction` is a savepoint of that transaction. It records no
    /// history of its own: the owner records the transaction. Valid only while the
    /// owner's transaction is open.
    static func borrowing(_ connection: Connection, path: String, model: ManagedObjectModel, layout: any StoreLayout,
                          identifier: String) -> PersistentStore {
        PersistentStore(path: path, options: StoreOptions(createIfMissing: false), access: .readWrite, writer: connection,
                        model: model, layout: layout, identifier: identifier, writeRefusal: nil)
    }

    /// Runs `body` on this thread as a write group already begun: contexts over the
    /// writer read the open transaction's rows, and each save is a savepoint of it
    /// (a failing save rolls back alone). Nothing commits or rolls back the whole here;
    /// the owner of the transaction does, and save events are not published (the owner
    /// announces the change).
    func joiningOpenTransaction<T>(_ body: (Connection) throws -> T) throws -> T {
        guard writer.isInTransaction else {
            throw StoreError.invalidOperation("\(path): no open transaction to join")
        }
        return try writerLock.withLock { _ in
            group.begin()
            group.began = true
            defer { group.end() }
            let result = try body(writer)
            if let failure = group.failure { throw failure }
            return result
        }
    }
}
