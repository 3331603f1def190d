import Foundation

extension PersistentStore {
    /// The token of the newest recorded change (start consuming from here).
    public func currentHistoryToken(using connection: Connection? = nil) throws -> HistoryToken {
        guard hasHistory else { return .start }
        let c = try connection ?? makeReaderConnection()
        return HistoryToken(rawValue: try c.scalarInt("SELECT max(id) FROM \(HistorySchema.changes)") ?? historyHorizon(c).rawValue)
    }

    /// Everything pruned is at or below this token.
    func historyHorizon(_ c: Connection) throws -> HistoryToken {
        // A tracked foreign database has history but no metadata table: nothing was pruned.
        guard try c.tableExists(Self.metadataTable) else { return .start }
        return HistoryToken(rawValue: Int64(try c.scalarText("SELECT value FROM _vellum_metadata WHERE key = 'historyHorizon'") ?? "0") ?? 0)
    }

    /// Transactions recorded after `token`, oldest first, optionally only those of `author`
    /// (or, with `excludingAuthor`, all but its). Throws `StoreError.historyExpired` when history
    /// after `token` was pruned: the caller must refetch everything.
    /// `limit` counts recorded rows, not transactions: the last transaction may be cut short.
    public func history(after token: HistoryToken, author: String? = nil, excludingAuthor: String? = nil,
                        limit: Int = 10_000, using connection: Connection? = nil) throws -> [HistoryTransaction] {
        guard hasHistory else { return [] }
        let c = try connection ?? makeReaderConnection()
        return try historyPage(after: token, limit: limit, using: c).transactions.filter { t in
            (author == nil || t.author == author) && (excludingAuthor == nil || t.author != excludingAuthor)
        }
    }

    /// Up to `limit` history rows after `token`, as the transactions they make up.
    func historyPage(after token: HistoryToken, limit: Int, using c: Connection) throws -> HistoryPage {
        let horizon = try historyHorizon(c)
        if token < horizon { throw StoreError.historyExpired(HistoryExpired(token: token, horizon: horizon)) }
        let rows = try c.rows("""
            SELECT c.id, c.txn, c.timestamp, c.entity, c.pk, c.kind, c.columns, c.tombstone, t.author, t.process, c.pks
            FROM \(HistorySchema.changes) AS c LEFT JOIN \(HistorySchema.transactions) AS t ON t.seq = c.txn
            WHERE c.id > ? ORDER BY c.id\(layout.dialect.limitOffset(limit: limit, offset: nil))
            """, [.integer(token.rawValue)])
        var result: [HistoryTransaction] = []
        let entityOfTable = entitiesByTable()
        for row in rows {
            guard let id = row[0].integerValue, let recorded = row[3].stringValue,
                  let kind = row[5].integerValue.flatMap({ HistoryChange.Kind(rawValue: Int($0)) }) else { continue }
            // Triggers of a tracked foreign table record the table's name.
            let entityName = model.entity(named: recorded) == nil ? entityOfTable[recorded] ?? recorded : recorded
            // A row names one key, or packs several (Vellum's own saves), or holds the values of a
            // key the object ID digests (a tracked table's, `RecordedKey`).
            let keys: [Int64]
            if let pk = row[4].integerValue { keys = [pk] }
            else if let recorded = row[4].stringValue { keys = try RecordedKey.digest(recorded, on: c).map { [$0] } ?? [] }
            else { keys = row[10].dataValue.map(HistoryWriter.unpack) ?? [] }
            let txn = row[1].integerValue
            let changedKeys = propertyNames(forColumns: row[6].stringValue, entity: entityName)
            let kept = try tombstone(row[7].stringValue, entity: entityName, change: id)
            let changes = keys.map { pk in
                HistoryChange(objectID: objectID(entity: entityName, primaryKey: pk), kind: kind, changedKeys: changedKeys, tombstone: kept)
            }
            let txAuthor = txn == nil ? nil : row[8].stringValue
            if let last = result.last, let txn, last.sequence == txn {
                result[result.count - 1].changes.append(contentsOf: changes)
                result[result.count - 1].token = HistoryToken(rawValue: id)
            } else {
                result.append(HistoryTransaction(sequence: txn, timestamp: Date(timeIntervalSince1970: row[2].doubleValue ?? 0),
                                                 author: txAuthor, processID: row[9].integerValue.map { Int32(truncatingIfNeeded: $0) },
                                                 changes: changes, token: HistoryToken(rawValue: id)))
            }
        }
        return HistoryPage(transactions: result, end: rows.last?[0].integerValue.map(HistoryToken.init(rawValue:)),
                           isLast: rows.count < limit)
    }

    /// Deletes history recorded before `date`; consumers whose token is older will be told to refetch.
    @discardableResult
    public func pruneHistory(before date: Date) throws -> Int {
        try prune(where: "timestamp < ?", [.double(date.timeIntervalSince1970)])
    }

    /// Deletes all but the newest `count` changes.
    @discardableResult
    public func pruneHistory(keepingLast count: Int) throws -> Int {
        try prune(where: "id <= (SELECT max(id) FROM \(HistorySchema.changes)) - ?", [.integer(Int64(count))])
    }

    private func prune(where condition: String, _ bindings: [Value]) throws -> Int {
        guard hasHistory else { return 0 }
        return try writeTransaction(recordingHistory: false) { db in
            guard let maxPruned = try db.scalarInt("SELECT max(id) FROM \(HistorySchema.changes) WHERE \(condition)", bindings) else { return 0 }
            // Counted first, and the horizon replaced by delete and insert: the same SQL on PostgreSQL.
            let n = Int(try db.scalarInt("SELECT count(*) FROM \(HistorySchema.changes) WHERE id <= ?", [.integer(maxPruned)]) ?? 0)
            try db.run("DELETE FROM \(HistorySchema.changes) WHERE id <= ?", [.integer(maxPruned)])
            try db.run("DELETE FROM \(HistorySchema.transactions) WHERE seq NOT IN (SELECT txn FROM \(HistorySchema.changes) WHERE txn IS NOT NULL)")
            let old = try historyHorizon(db)
            try db.run("DELETE FROM _vellum_metadata WHERE key = 'historyHorizon'")
            try db.run("INSERT INTO _vellum_metadata (key, value) VALUES ('historyHorizon', ?)", [.string(String(max(old.rawValue, maxPruned)))])
            return n
        }
    }

    /// Entities by their table, where a table holds one entity (a foreign layout's).
    private func entitiesByTable() -> [String: String] {
        var result: [String: String] = [:]
        for e in model.rootEntities where e.subentityNames.isEmpty {
            if let table = layout.table(of: e.name), table != e.name { result[table] = e.name }
        }
        return result
    }

    private func propertyNames(forColumns columns: String?, entity: String) -> Set<String> {
        guard let columns, !columns.isEmpty, let m = layout.mapping(for: entity) else { return [] }
        var names: Set<String> = []
        for column in columns.split(separator: ",").map(String.init) {
            if let i = m.attributeColumns.firstIndex(of: column) { names.insert(m.entity.attributes[i].name); continue }
            // Vellum's own rows name properties (including to-many relationships, which have no column).
            if m.entity.attribute(named: column) != nil || m.entity.relationship(named: column) != nil { names.insert(column); continue }
            for (i, s) in m.relationshipStorage.enumerated() {
                // A composite foreign key's to-one is held in several columns (`StoreLayout.foreignKeyAssignments`).
                if case .foreignKey(let c) = s, c == column || layout.foreignKeyAssignments(table: m.table, column: c).contains(where: { $0.column == column }) {
                    names.insert(m.entity.relationships[i].name)
                }
            }
        }
        return names
    }

    /// A tombstone's values by attribute name. Text that cannot be read is an error
    /// naming the change, never an empty tombstone (which would read as "nothing kept").
    private func tombstone(_ json: String?, entity: String, change: Int64) throws -> [String: Value] {
        guard let json, let m = layout.mapping(for: entity) else { return [:] }
        let object: [String: TombstoneJSON.Scalar]
        do { object = try TombstoneJSON.decode(json) } catch {
            throw StoreError.invalidOperation(
                "history change \(change) (\(entity)): its tombstone is not readable (\(error.reason) at character \(error.position)): \(CaretDiagnostic.shortened(json, limit: 120))")
        }
        var result: [String: Value] = [:]
        for (column, raw) in object {
            guard let i = m.attributeColumns.firstIndex(of: column) else { continue }
            let type = m.entity.attributes[i].type
            let value: Value
            switch raw {
            case .null: value = .null
            case .bool(let b): value = type == .boolean ? .bool(b) : type.isInteger ? .integer(b ? 1 : 0) : .double(b ? 1 : 0)
            case .number(let n):
                let d = Double(n) ?? .nan
                if type == .boolean { value = .bool(d != 0) }
                else if type.isInteger { value = Int64(n).map(Value.integer) ?? .integer(Int64(exactly: d.rounded(.towardZero)) ?? 0) }
                else if type == .date { value = .date(Date(timeIntervalSince1970: d)) }
                else { value = .double(d) }
            case .string(let s): value = Value.lenient(.string(s), as: type)
            }
            result[m.entity.attributes[i].name] = value
        }
        return result
    }
}
