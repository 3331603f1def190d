import Foundation

extension CoreDataLayout {
    /// What Core Data writes beside a save's rows, in the same transaction: the companion
    /// columns of to-one relationships (`CoreDataCompanionColumn`) and, when the store records
    /// persistent history, the save's transaction and change rows (`CoreDataHistoryWriter`).
    /// Returns the history transaction's own key (`CoreDataHistoryTables.ownKey`), if one was written.
    public func finishSave(_ db: Connection, _ save: () -> SavedRows) throws(StoreError) -> Int64? {
        let rows = save()
        for row in rows.inserted + rows.updated {
            for companion in companions[row.entity] ?? [] {
                try db.run(companion.updateSQL(table: mapping(for: row.entity)!.table, dialect: dialect), [.integer(row.key)])
            }
        }
        guard let history, rows.inserted.count + rows.updated.count + rows.deleted.count > 0 else { return nil }
        func changes(_ rows: [SavedRow], _ kind: Int64) -> [CoreDataHistoryWriter.Change] {
            rows.map { .init(kind: kind, entity: entityNumbers[$0.entity] ?? 0, key: $0.key) }
        }
        return try CoreDataHistoryWriter(tables: history, db: db)
            .record(changes(rows.inserted, 0) + changes(rows.updated, 1) + changes(rows.deleted, 2),
                    author: rows.author, contextName: rows.contextName)
    }
}
