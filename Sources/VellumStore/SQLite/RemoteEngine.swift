import Foundation

/// A database server behind a `Connection` instead of a SQLite file (PostgreSQL,
/// adopted by a later layer). Contexts, loaders and the save writer keep using
/// `Connection` and `Statement`; a SQLite connection has no engine, so its per-row
/// calls only test that the engine is nil, never dispatch through this protocol.
public protocol RemoteEngine: AnyObject {
    /// Where the connection goes, for messages (no password).
    var location: String { get }
    /// Runs SQL without parameters or results. SQLite's `BEGIN IMMEDIATE`/`DEFERRED`/
    /// `EXCLUSIVE` are given as they are: the engine spells its own transaction start.
    func execute(_ sql: String) throws(StoreError)
    /// A statement of SQL written with `?` or numbered placeholders.
    func prepare(_ sql: String) throws(StoreError) -> any RemoteCursor
    var isInTransaction: Bool { get }
    func tableExists(_ name: String) throws(StoreError) -> Bool
    /// Stops the statement running now; callable from any thread (`QueryInterrupter`).
    func cancelRunningStatement()
}

/// One statement's rows on a `RemoteEngine`: run with all its values, then read row by row.
public protocol RemoteCursor: AnyObject {
    /// Runs the statement with `values` (one per placeholder); rows are read afterwards.
    func run(_ values: [Value]) throws(StoreError)
    /// Moves to the next row of the last run; false after the last.
    func next() -> Bool
    var columnCount: Int { get }
    /// Rows changed by the last run (INSERT, UPDATE, DELETE).
    var affectedRows: Int { get }
    func isNull(_ column: Int) -> Bool
    func value(at column: Int) -> Value
    func value(at column: Int, as type: AttributeType) -> Value
}
