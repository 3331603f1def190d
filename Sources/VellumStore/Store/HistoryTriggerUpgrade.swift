import Foundation

extension PersistentStore {
    /// Brings the history triggers of a store written by an older Vellum up to
    /// `HistorySchema.triggerVersion`: Vellum's triggers are replaced in one
    /// transaction and the version recorded; no row of data changes. Only for a
    /// store opened for writing; triggers of a newer Vellum are left alone.
    func upgradeHistoryTriggersIfNeeded() throws(StoreError) {
        guard hasHistory, !options.readOnly, !options.inMemory else { return }
        let layout = self.layout
        do {
            // A tracked foreign database (no metadata table) keeps the triggers `vellum track` installed.
            if try !withWriter({ try $0.tableExists(Self.metadataTable) }) { return }
            if try withWriter(Self.triggersAreCurrent) { return }
            try writeTransaction(recordingHistory: false) { db in
                if try Self.triggersAreCurrent(db) { return }  // another process was first
                let names = try db.rows("SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
                                        [.integer(Int64(HistorySchema.triggerPrefix.count)), .string(HistorySchema.triggerPrefix)])
                for row in names { if let name = row[0].stringValue { try db.execute("DROP TRIGGER \(quoteIdentifier(name))") } }
                for statement in HistorySchema.triggersSQL(layout: layout) + [HistorySchema.recordTriggerVersionSQL()] { try db.execute(statement) }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalidOperation("\(path): installing the history triggers failed: \(error)")
        }
    }

    /// True when the recorded trigger version is this Vellum's or newer (absent: 1).
    private static func triggersAreCurrent(_ db: Connection) throws(StoreError) -> Bool {
        let text = try db.scalarText("SELECT value FROM \(quoteIdentifier(metadataTable)) WHERE key = ?", [.string(HistorySchema.triggerVersionKey)])
        return (text.flatMap { Int($0) } ?? 1) >= HistorySchema.triggerVersion
    }
}
