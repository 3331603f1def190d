import Foundation

/// Reads a store after a randomized session and explains every value in it by
/// an acknowledged save: the external writer's log on one side, the scripted
/// user's actions on the other, ordered by the store's own persistent history.
struct StoreAudit {
    struct HistoryRow {
        var id: Int64
        var txn: Int64?
        var time: Double
        var pks: [Int64]
        var kind: Int                 // 0 insert, 1 update, 2 delete
        var columns: Set<String>      // changed columns of an update
        var author: String?

        func touches(pk: Int64, column: String) -> Bool {
            pks.contains(pk) && (kind != 1 || columns.contains(column))
        }
    }

    static let columns = ["name", "qty", "note", "owner"]

    let path: String
    /// `_pk` -> column -> value as `sqlite3` prints it ("" for NULL).
    let rows: [Int64: [String: String]]
    let history: [HistoryRow]
    let integrity: String
    /// The Person rows left at the end.
    let people: Set<Int64>

    init(path: String) throws {
        self.path = path
        integrity = try sqliteScalar(path, "PRAGMA integrity_check")
        var rows: [Int64: [String: String]] = [:]
        let select = "SELECT _pk, " + Self.columns.map { "IFNULL(\"\($0)\", '')" }.joined(separator: ", ") + " FROM Item"
        for line in try runSQLite(path, ".separator \"\\t\"\n\(select);\n").out.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == Self.columns.count + 1, let pk = Int64(f[0]) else { continue }
            rows[pk] = Dictionary(uniqueKeysWithValues: zip(Self.columns, f.dropFirst()))
        }
        self.rows = rows
        people = Set(try runSQLite(path, "SELECT _pk FROM Person;\n").out.split(separator: "\n").compactMap { Int64($0) })
        let sql = """
            SELECT c.id, IFNULL(c.txn, ''), c.timestamp, IFNULL(c.pk, ''), IFNULL(hex(c.pks), ''), c.kind,
                   IFNULL(c.columns, ''), IFNULL(t.author, '')
            FROM _vellum_changes c LEFT JOIN _vellum_transactions t ON t.seq = c.txn
            WHERE c.entity = 'Item' ORDER BY c.id;
            """
        var history: [HistoryRow] = []
        for line in try runSQLite(path, ".separator \"\\t\"\n\(sql)\n").out.split(separator: "\n") {
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count == 8, let id = Int64(f[0]), let time = Double(f[2]), let kind = Int(f[5]) else { continue }
            var pks = Self.decodePacked(hex: f[4])
            if let pk = Int64(f[3]) { pks.append(pk) }
            history.append(HistoryRow(id: id, txn: Int64(f[1]), time: time, pks: pks, kind: kind,
                                      columns: Set(f[6].split(separator: ",").map(String.init)),
                                      author: f[7].isEmpty ? nil : f[7]))
        }
        self.history = history
    }

    /// Primary keys packed as little-endian Int64s (Vellum's compact history rows).
    static func decodePacked(hex: String) -> [Int64] {
        var bytes: [UInt8] = []
        var i = hex.startIndex
        while i < hex.endIndex, let j = hex.index(i, offsetBy: 2, limitedBy: hex.endIndex) {
            bytes.append(UInt8(hex[i..<j], radix: 16) ?? 0)
            i = j
        }
        var keys: [Int64] = []
        for start in stride(from: 0, to: bytes.count - bytes.count % 8, by: 8) {
            var key: UInt64 = 0
            for offset in 0..<8 { key |= UInt64(bytes[start + offset]) << UInt64(8 * offset) }
            keys.append(Int64(bitPattern: key))
        }
        return keys
    }

    /// A history row in words, for a failure message.
    func describe(_ row: HistoryRow) -> String {
        "save #\(row.id) by \(row.author ?? "-") at \(row.time) changed \(row.columns.sorted().joined(separator: ",")) of \(row.pks.count) row(s)"
    }

    /// The first history row after `index` that changes `column` of `pk` (or inserts/deletes the row).
    func nextChange(after index: Int, pk: Int64, column: String) -> Int? {
        history.indices.dropFirst(index + 1).first { history[$0].touches(pk: pk, column: column) }
    }

    /// The scripted action that made the user's save `row`: the last action that can
    /// write and started before the save. The driver waits for each writing action's
    /// screen to settle before the next, so a save never lands in a later action.
    func action(for row: HistoryRow, in actions: [ScriptedUser.Action]) -> ScriptedUser.Action? {
        actions.last { $0.start <= row.time && $0.intent != .keys }
    }

    /// Every way the session broke "nothing lost, nothing silently changed", in words.
    func violations(writer: ExternalSQLWriter, user actions: [ScriptedUser.Action], typed: Set<String>,
                    initial: [Int64: [String: String]], personPKs: [Int64]) -> [String] {
        var problems: [String] = []
        if integrity != "ok" { problems.append("integrity_check: \(integrity)") }
        let userRows = history.indices.filter { history[$0].txn != nil }

        // 1. Each acknowledged external write is in the history, and is either still the
        //    value or was replaced by a later save that saw it (or whose author chose
        //    "keep mine" in a conflict prompt that showed it).
        var cursor = -1
        for w in writer.acknowledged {
            let kind = w.kind == .insert ? 0 : w.kind == .update ? 1 : 2
            guard let h = history.indices.dropFirst(cursor + 1).first(where: {
                history[$0].txn == nil && history[$0].kind == kind && history[$0].pks.contains(w.pk)
                    && (w.column.map(history[$0].columns.contains) ?? true)
            }) else {
                problems.append("external \(w.kind) of \(w.pk) \(w.column ?? "") \(w.value ?? "") is missing from the history")
                continue
            }
            cursor = h
            guard w.kind == .update, let column = w.column else { continue }
            guard let next = nextChange(after: h, pk: w.pk, column: column) else {
                let now = rows[w.pk]?[column]
                // A person deleted later takes its items' owner with it (nullify); SQLite's
                // ON DELETE SET NULL does that for references the deleting context never loaded.
                let ownerDeleted = column == "owner" && now == "" && !people.contains(Int64(w.value ?? "") ?? -1)
                if now != w.value && !ownerDeleted {
                    problems.append("external write \(w.pk).\(column) = \(w.value ?? "") is now \(now ?? "(row gone)") with no recorded save after it")
                }
                continue
            }
            let n = history[next]
            guard n.txn != nil, n.kind == 1 else { continue }   // a later external write, or a delete
            guard let a = action(for: n, in: actions) else {
                problems.append("save #\(n.id) overwrote \(w.pk).\(column) = \(w.value ?? "") with no user action before it")
                continue
            }
            let sawIt: Bool
            switch a.intent {
            case .keepMine: sawIt = true
            case .confirmDelete: sawIt = true   // a delete rule (nullify) of a record the user deleted
            case .pick where a.promptShown: sawIt = true
            case .commitEdit, .commitEmpty, .pick:
                // Committed before the keys opened the editor; or while it was opening, when
                // the editor then showed the value written (a unique token): seen either way.
                let t = history[h].time
                let shownOnOpening = a.editorSeen.map { $0.at > t && w.value.map($0.screen.contains) == true } ?? false
                sawIt = (a.editorOpenedAt ?? 0) > t || shownOnOpening
            default: sawIt = false
            }
            if !sawIt {
                problems.append("step \(a.step) (\(a.intent), keys \(a.keys)) overwrote external \(w.pk).\(column) = \(w.value ?? "") (committed \(history[h].time), editor opened \(a.editorOpenedAt.map { "\($0)" } ?? "-")) without a conflict prompt; \(describe(n)), the store holds \(rows[w.pk]?[column] ?? "(row gone)")")
            }
        }

        // 2. A value the user typed and saved is still there unless a later save changed it.
        for i in userRows where history[i].kind == 1 && history[i].pks.count == 1 && history[i].columns.count == 1 {
            let row = history[i], pk = row.pks[0], column = row.columns.first!
            guard let a = action(for: row, in: actions), case .commitEdit(let token) = a.intent,
                  userRows.filter({ action(for: history[$0], in: actions)?.step == a.step }).count == 1,
                  nextChange(after: i, pk: pk, column: column) == nil, let now = rows[pk]?[column] else { continue }
            if now != token {
                problems.append("step \(a.step): saved \(pk).\(column) = \(token), but the store holds \(now) and no later save changed it")
            }
        }

        // 3. Every value comes from somewhere: the initial data, a typed token, an acknowledged external write.
        let failed = Set(writer.failedValues)
        var written: [String: Set<String>] = [:]
        for w in writer.acknowledged {
            if let c = w.column, let v = w.value { written[c, default: []].insert(v) }
            if w.kind == .insert, let v = w.value { written["name", default: []].insert(v); written["qty", default: []].insert(v) }
        }
        for (pk, values) in rows.sorted(by: { $0.key < $1.key }) {
            for column in Self.columns {
                let v = values[column] ?? ""
                if failed.contains(v) { problems.append("\(pk).\(column) = \(v) comes from an external write that failed") }
                let initialValues = Set(initial.values.compactMap { $0[column] })
                var explained = initialValues.contains(v) || typed.contains(v) || written[column, default: []].contains(v)
                if column == "owner" { explained = explained || personPKs.map(String.init).contains(v) }
                if v.isEmpty { explained = column != "name" }
                if !explained { problems.append("\(pk).\(column) = '\(v)' is explained by no acknowledged save") }
            }
        }
        return problems
    }
}
