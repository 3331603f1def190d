import Foundation

/// PostgreSQL behind a `Connection`, so that contexts, loaders and the save writer
/// run over it unchanged. Their SQL comes from the layout's dialect, except the few
/// spellings they share with SQLite, translated here: `?` placeholders become
/// `$1…$N`, and SQLite's transaction verbs become PostgreSQL's.
///
/// A lost connection fails the statement in flight (`PGConnection.lostConnection`) and
/// is opened again before the next transaction, or the next statement outside one.
// Unchecked: only `connection.canceller` is used off the owner's thread (`cancelRunningStatement`).
public final class PGEngine: RemoteEngine, @unchecked Sendable {
    public let connection: PGConnection
    /// Takes the transaction-level advisory lock that writers of one store take
    /// (`BEGIN IMMEDIATE`): like SQLite's write lock, it makes a save's conflict checks
    /// and key allocation see every earlier commit and no concurrent one.
    let writeLock: String
    /// True between this engine's BEGIN and its COMMIT/ROLLBACK: a connection lost
    /// then is not silently replaced (the transaction's work is gone; the caller is told).
    private var transactionOpen = false
    /// An SQL expression read in the same round trip as a write transaction's BEGIN and
    /// lock (the store's model hash, `PersistentStore.refuseIfMigratedElsewhere`), and its
    /// value from the current write transaction (nil outside one).
    public var readAtWriteBegin: String?
    public private(set) var valueReadAtWriteBegin: Value?

    public init(connection: PGConnection) {
        self.connection = connection
        writeLock = Self.writeLockSQL(schema: connection.url.schema.map(PostgreSQLDialect().literal) ?? "current_schema()")
    }

    /// The store's write lock, keyed by the database and schema alone (any URL form, any
    /// client: the store's triggers take it too before another program writes, see
    /// `PostgreSQLHistorySchema`). `schema` is an SQL expression.
    static func writeLockSQL(schema: String) -> String {
        "pg_advisory_xact_lock(hashtextextended('vellum-writer:' || current_database() || '.' || \(schema), 0))"
    }

    public var location: String { connection.url.description }
    /// True from this engine's BEGIN until the caller ends the transaction, even when the
    /// connection was lost meanwhile (the server rolled it back): the caller's ROLLBACK is
    /// what lets the next statement outside a transaction open the connection again.
    public var isInTransaction: Bool { transactionOpen || connection.isInTransaction }

    public func execute(_ sql: String) throws(StoreError) {
        switch sql {
        case "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE":
            let read = try begin("BEGIN; SELECT \(writeLock)" + (readAtWriteBegin.map { ", \($0)" } ?? ""))
            valueReadAtWriteBegin = readAtWriteBegin == nil || read.rowCount == 0 || read.columnCount < 2 ? nil : read.value(0, 1)
        case "BEGIN DEFERRED":
            try begin("BEGIN")
        case "COMMIT", "ROLLBACK", "END":
            transactionOpen = false
            valueReadAtWriteBegin = nil
            try connection.execute(sql)
        default:
            try reconnectIfLost()
            try connection.execute(sql)
        }
    }

    /// Nothing is lost by starting again when the connection broke before the
    /// transaction began (a server restart, a terminated backend since the last write).
    @discardableResult
    private func begin(_ sql: String) throws(StoreError) -> PGResult {
        transactionOpen = false
        valueReadAtWriteBegin = nil
        try reconnectIfLost()
        let result: PGResult
        do throws(StoreError) { result = try connection.executeReturningLast(sql) } catch {
            guard !connection.isConnected else { throw error }
            try connection.reconnect()
            result = try connection.executeReturningLast(sql)
        }
        transactionOpen = true
        return result
    }

    /// True for a query that changes nothing, run outside a transaction.
    func canRetryRead(_ sql: String) -> Bool { !transactionOpen && sql.hasPrefix("SELECT") }

    /// Opens the connection again when it was lost outside a transaction.
    func reconnectIfLost() throws(StoreError) {
        if !transactionOpen && !connection.isConnected { try connection.reconnect() }
    }

    public func prepare(_ sql: String) throws(StoreError) -> any RemoteCursor {
        PGCursor(engine: self, sql: PGPlaceholders.numbered(sql))
    }

    public func tableExists(_ name: String) throws(StoreError) -> Bool {
        try reconnectIfLost()
        return try connection.scalar("SELECT to_regclass(quote_ident($1)) IS NOT NULL", [.string(name)]) == .bool(true)
    }

    public func cancelRunningStatement() { connection.cancelRunningStatement() }
}

/// The rows of one statement run by `PGEngine`. The result is held only while rows
/// are read: it is released after the last row (or the next run), so a statement kept
/// in a connection's cache does not keep a whole result set alive.
final class PGCursor: RemoteCursor {
    let engine: PGEngine
    let sql: String
    private var result: PGResult?
    private var rowCount = 0
    private var row = -1
    private(set) var columnCount = 0
    private(set) var affectedRows = 0

    init(engine: PGEngine, sql: String) {
        self.engine = engine
        self.sql = sql
    }

    func run(_ values: [Value]) throws(StoreError) {
        result = nil
        row = -1
        (rowCount, columnCount, affectedRows) = (0, 0, 0)
        try engine.reconnectIfLost()
        let r: PGResult
        do throws(StoreError) { r = try engine.connection.query(sql, values, untypedText: true) } catch {
            // A read outside a transaction is asked again on a new connection (the server was
            // restarted, or the backend terminated, since the last call); writes never are.
            guard !engine.connection.isConnected, engine.canRetryRead(sql) else { throw error }
            try engine.reconnectIfLost()
            r = try engine.connection.query(sql, values, untypedText: true)
        }
        (rowCount, columnCount, affectedRows) = (r.rowCount, r.columnCount, r.affectedRows)
        if rowCount > 0 { result = r }
    }

    func next() -> Bool {
        guard result != nil else { return false }
        row += 1
        if row < rowCount { return true }
        result = nil
        return false
    }

    /// True while the last run's rows are held (until the last one was read).
    var holdsResult: Bool { result != nil }

    func isNull(_ column: Int) -> Bool { result?.isNull(row, column) ?? true }
    func value(at column: Int) -> Value { result?.value(row, column) ?? .null }
    func value(at column: Int, as type: AttributeType) -> Value { result?.value(row, column, as: type) ?? .null }
}
