import CSQLite
import Foundation

/// Stops the SQL a context is running, from any thread: the browser's Esc while a
/// slow filter runs on the main thread. The running statement (and any started
/// until `interrupt` is no longer called) fails with "the query was cancelled";
/// the context stays usable and nothing it holds changes.
// Unchecked: it only holds the connection open and calls the one thread-safe SQLite (or libpq) function.
public final class QueryInterrupter: @unchecked Sendable {
    // Holding the connection keeps it open: interrupting a closed one is undefined.
    // `sqlite3_interrupt` is the one call SQLite allows from another thread.
    private let connection: Connection

    init(connection: Connection) { self.connection = connection }

    public func interrupt() {
        // A server connection has no SQLite handle: the server is asked to cancel (PQcancel).
        if let remote = connection.remote { remote.cancelRunningStatement() } else { sqlite3_interrupt(connection.handle) }
    }
}

extension ManagedObjectContext {
    /// Cancels this context's running fetch from another thread (see `QueryInterrupter`).
    public var queryInterrupter: QueryInterrupter { QueryInterrupter(connection: connection) }
}
