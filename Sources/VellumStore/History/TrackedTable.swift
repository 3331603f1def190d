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

    /// The key as the triggers read it from `NEW`/`OLD`.
    var sql: String {
        switch self {
        case .rowid: return "rowid"
        case .integerPrimaryKey(let column): return quoteIdentifier(column)
        }
    }
}

/// A table left out of tracking, and why.
public struct SkippedTable: Sendable, Hashable {
    public var table: String
    public var reason: String
}
