import Foundation

/// A failed PostgreSQL call: the server's SQLSTATE (or libpq's, for a failed
/// connection), its message and detail, and the SQL (kept for debugging; users see the reason).
public struct PostgreSQLFailure: Sendable, Hashable, CustomStringConvertible {
    /// Five characters: `23505` unique violation, `40001` serialization failure, `08…` connection.
    public var sqlState: String
    public var message: String
    public var detail: String?
    public var sql: String?

    public init(sqlState: String, message: String, detail: String? = nil, sql: String? = nil) {
        self.sqlState = sqlState
        self.message = message
        self.detail = detail
        self.sql = sql
    }

    /// SQLSTATE class `08`: the connection failed or was lost.
    public var isConnectionFailure: Bool { sqlState.hasPrefix("08") }

    /// The server cannot be reached now: a connection failure, or the server shutting down
    /// or starting up (class `57P`, as during a restart). The same work may succeed later.
    public var isServerUnavailable: Bool { isConnectionFailure || sqlState.hasPrefix("57P") }

    /// `40001` serialization failure or `40P01` deadlock: nothing was written, and the
    /// same work run again may well succeed (the write queue does so, a bounded number of times).
    public var isTransientConflict: Bool { sqlState == "40001" || sqlState == "40P01" }

    /// `57014`: the statement was cancelled (`QueryInterrupter`).
    public var isCancellation: Bool { sqlState == "57014" }

    public var description: String {
        if isCancellation { return "the query was cancelled" }
        return "PostgreSQL error \(sqlState): \(message)" + (detail.map { " (\($0))" } ?? "")
    }
}
