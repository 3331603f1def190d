import CLibPQ
import Foundation

/// One libpq connection. Not thread-safe: like `Connection`, it is confined to
/// the queue (or lock) of its owner. Every session is UTF-8, UTC, and searches
/// the URL's schema first.
public final class PGConnection {
    let handle: OpaquePointer
    public let url: PostgreSQLURL
    /// Session settings, run again after a reconnect.
    private var session: [String] = []
    let canceller = PGCanceller()

    public convenience init(url text: String) throws(StoreError) {
        try self.init(url: try PostgreSQLURL(text))
    }

    public init(url: PostgreSQLURL) throws(StoreError) {
        if let why = vellum_libpq_load_error() {
            throw .postgresql(PostgreSQLFailure(sqlState: "08001", message:
                "\(url): PostgreSQL's client library (libpq.so.5, Debian package libpq5) could not be loaded: \(String(cString: why))"))
        }
        guard let conn = PQconnectdb(url.connectionString) else {
            throw .postgresql(PostgreSQLFailure(sqlState: "08001", message: "\(url): libpq could not allocate a connection"))
        }
        guard PQstatus(conn) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(conn))
            PQfinish(conn)
            throw .postgresql(PostgreSQLFailure(sqlState: "08001", message: "cannot connect to \(url): \(message)"))
        }
        handle = conn
        self.url = url
        // Notices (e.g. "already exists, skipping") would go to stderr; errors are what matter.
        PQsetNoticeProcessor(conn, { _, _ in }, nil)
        var setup = "SET client_encoding TO 'UTF8'; SET TimeZone TO 'UTC'"
        if let schema = url.schema { setup += "; SET search_path TO \(PostgreSQLDialect().quote(schema)), public" }
        try addSessionSetting(setup)
        canceller.renew(from: conn)
    }

    /// Runs `sql` (`SET …`) now and again after every reconnect.
    public func addSessionSetting(_ sql: String) throws(StoreError) {
        try execute(sql)
        session.append(sql)
    }

    /// Opens the connection again (same server, same session settings) after it was lost.
    public func reconnect() throws(StoreError) {
        PQreset(handle)
        guard isConnected else {
            throw .postgresql(PostgreSQLFailure(sqlState: "08001", message: "cannot reconnect to \(url): \(Self.trimmed(PQerrorMessage(handle)))"))
        }
        for sql in session { try execute(sql) }
        canceller.renew(from: handle)
    }

    /// Stops the statement the connection runs now, from any thread: it fails with
    /// SQLSTATE `57014` ("the query was cancelled"), the connection stays usable.
    public func cancelRunningStatement() { canceller.cancelRunningStatement() }

    deinit { PQfinish(handle) }

    /// True while the connection to the server is up.
    public var isConnected: Bool { PQstatus(handle) == CONNECTION_OK }

    /// True inside a transaction (also a failed one, until it is rolled back).
    public var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status != PQTRANS_IDLE && status != PQTRANS_UNKNOWN
    }

    /// The server process serving this connection (notifications name the sender's).
    public var backendPID: Int32 { PQbackendPID(handle) }

    /// Runs `sql`, which may hold several statements and no parameters.
    public func execute(_ sql: String) throws(StoreError) {
        _ = try executeReturningLast(sql)
    }

    /// `execute`, returning the last statement's result (text format).
    public func executeReturningLast(_ sql: String) throws(StoreError) -> PGResult {
        try check(PQexec(handle, sql), sql: sql)
    }

    /// Runs one statement with `parameters` bound to `$1`…`$N`, sent and read back in `format`.
    @discardableResult
    public func query(_ sql: String, _ parameters: [Value] = [], format: PGFormat = .binary, untypedText: Bool = false) throws(StoreError) -> PGResult {
        let p = try PGParameters(parameters, format: format, untypedText: untypedText)
        let result = p.withArrays { types, values, lengths, formats in
            PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, format.rawValue)
        }
        return try check(result, sql: sql)
    }

    /// The rows of `sql` as values.
    public func rows(_ sql: String, _ parameters: [Value] = [], format: PGFormat = .binary) throws(StoreError) -> [[Value]] {
        try query(sql, parameters, format: format).rows
    }

    /// The first column of the first row (nil when there is no row).
    public func scalar(_ sql: String, _ parameters: [Value] = []) throws(StoreError) -> Value? {
        let r = try query(sql, parameters)
        return r.rowCount > 0 && r.columnCount > 0 ? r.value(0, 0) : nil
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(StoreError) -> PGResult {
        guard let result else {
            if !isConnected { throw lostConnection(sql: sql) }
            throw .postgresql(PostgreSQLFailure(sqlState: "53200", message: Self.trimmed(PQerrorMessage(handle)), sql: sql))
        }
        let owned = PGResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return owned
        default:
            func field(_ code: UInt8) -> String? { PQresultErrorField(result, Int32(code)).map { String(cString: $0) } }
            // A terminated backend answers with its FATAL message, then closes the connection.
            if !isConnected { throw lostConnection(sql: sql) }
            let state = field(UInt8(ascii: "C")) ?? "XX000"
            let message = field(UInt8(ascii: "M")) ?? Self.trimmed(PQresultErrorMessage(result))
            throw .postgresql(PostgreSQLFailure(sqlState: state, message: message, detail: field(UInt8(ascii: "D")), sql: sql))
        }
    }

    /// The server went away mid-call: what ran in the transaction was not committed
    /// (a COMMIT's outcome is unknown), and the connection is opened again at the next write.
    func lostConnection(sql: String? = nil) -> StoreError {
        let what = sql.map { $0.hasPrefix("COMMIT") ? "; whether the COMMIT took effect is unknown" : "; the statement and its transaction did not take effect" } ?? ""
        return .postgresql(PostgreSQLFailure(sqlState: "08006", message: "\(url): the connection to the server was lost (\(Self.trimmed(PQerrorMessage(handle))))\(what); "
            + "Vellum reconnects at the next write", sql: sql))
    }

    static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}
