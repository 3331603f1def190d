import Foundation

/// Whether and by which key `vellum track` can watch a table (`HistoryTracking`).
extension TableInfo {
    /// Why this table cannot be tracked by `key`, or nil when it can.
    func problem(trackingBy key: TrackedKey) -> String? {
        switch type {
        case "view": return "a view (it has no rows of its own to watch)"
        case "virtual": return "a virtual table (SQLite allows no triggers on it)"
        case "shadow": return "a virtual table's shadow table (written by SQLite itself)"
        default: break
        }
        // A declared key other than the INTEGER PRIMARY KEY is what addresses its rows
        // (`ForeignSchema.RowIdentity`), not the rowid.
        let keyed = integerPrimaryKey == nil && !declaredKey.isEmpty
        let hiding = columns.first { ["rowid", "_rowid_", "oid"].contains($0.name.lowercased()) }
        switch key {
        case .rowid:
            if keyed { return "its rows are addressed by their primary key (\(declaredKey.joined(separator: ", "))), not by the row id" }
            if let hiding, integerPrimaryKey == nil { return "its column \(hiding.name) hides the row id" }
            return nil
        case .integerPrimaryKey(let column):
            if integerPrimaryKey == column { return nil }
            guard columns.contains(where: { $0.name == column }) else { return "it has no column \(column)" }
            return "\(column) is not its INTEGER PRIMARY KEY"
        case .primaryKey(let key):
            guard keyed else { return "its rows are addressed by \(integerPrimaryKey.map { "its INTEGER PRIMARY KEY \($0)" } ?? "their row id"), not a declared key" }
            guard key == declaredKey else { return "its primary key is (\(declaredKey.joined(separator: ", "))), not (\(key.joined(separator: ", ")))" }
            // The layout cannot address the rows of a table whose column is named rowid.
            if let hiding, hiding.name.lowercased() == "rowid" { return "its column \(hiding.name) hides the row id" }
            return nil
        }
    }

    /// The key to track it by: its `INTEGER PRIMARY KEY`, else its declared primary key, else the row id.
    var naturalKey: TrackedKey {
        if let column = integerPrimaryKey { return .integerPrimaryKey(column: column) }
        return declaredKey.isEmpty ? .rowid : .primaryKey(columns: declaredKey)
    }
}
