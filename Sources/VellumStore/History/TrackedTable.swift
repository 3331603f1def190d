import Foundation

/// A table of a database Vellum did not create, to be tracked: its changes are
/// recorded in persistent history by triggers (`HistoryTracking`).
public struct TrackedTable: Sendable, Hashable {
    public var table: String
    public var key: TrackedKey

    public init(table: String, key: TrackedKey) {
        self.table = table
        self.key = key
    }
}

/// What identifies a tracked table's rows in history (the object ID's key).
public enum TrackedKey: Sendable, Hashable {
    /// The table's row id (a table without an `INTEGER PRIMARY KEY`).
    case rowid
    /// The table's `INTEGER PRIMARY KEY` column (an alias of the row id).
    case integerPrimaryKey(column: String)
    /// The table's declared primary key, where that is what addresses its rows
    /// (`ForeignSchema.RowIdentity`: a text or composite key, an `INT PRIMARY KEY`,
    /// `WITHOUT ROWID`): one integer column is recorded as it is, other keys as their
    /// values, which the history reader digests into the object's key (`RecordedKey`).
    case primaryKey(columns: [String])

    /// The key as the triggers read it from `row` (`NEW` or `OLD`) of `table` (its schema,
    /// for a declared key: the layout's rule for which key a row has, `declaredKeySQL`).
    func sql(_ row: String, table: ForeignSchema.Table?) -> String {
        let column = { (name: String) in row + "." + quoteIdentifier(name) }
        switch self {
        case .rowid: return row + ".rowid"
        case .integerPrimaryKey(let name): return column(name)
        case .primaryKey(let columns):
            return table?.declaredKeySQL(column: column, rowid: row + ".rowid", digest: RecordedKey.sql) ?? RecordedKey.sql(columns.map(column))
        }
    }

    /// How `vellum track` names it: `rowid`, the column, or the key's columns.
    public var label: String {
        switch self {
        case .rowid: return "rowid"
        case .integerPrimaryKey(let column): return column
        case .primaryKey(let columns): return columns.joined(separator: ", ")
        }
    }
}

/// A table left out of tracking, and why.
public struct SkippedTable: Sendable, Hashable {
    public var table: String
    public var reason: String
}
