import CSQLite
import CSQLiteShim
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs. The C macro is not importable.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection. Not thread-safe: a connection is confined to the queue
/// (or lock) of its owner, as SQLite's multi-thread mode requires.
public final class Connection {
    public struct OpenOptions: Sendable {
        public var readOnly = false
        public var create = false
        public var busyTimeoutMilliseconds: Int32 = 5000
        /// WAL lets readers see committed snapshots while one writer works.
        public var journalModeWAL = true
        /// Read-write at the file level (normal WAL locking) but refusing writes (`query_only`).
        public var queryOnly = false
        /// False: closing never copies the `-wal` into the main file (nor removes it).
        public var checkpointsOnClose = true
        /// `PRAGMA foreign_keys`: references checked and `ON DELETE` actions run (false:
        /// SQLite's own default, neither).
        public var enforcesForeignKeys = true
        public init(readOnly: Bool = false, create: Bool = false, busyTimeoutMilliseconds: Int32 = 5000, journalModeWAL: Bool = true) {
            self.readOnly = readOnly
            self.create = create
            self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
            self.journalModeWAL = journalModeWAL
        }
    }

    /// The SQLite handle; nil when a server stands behind the connection (`remote`).
    let handle: OpaquePointer!
    public let path: String
    /// The server this connection talks to instead of a SQLite file (PostgreSQL).
    public let remote: (any RemoteEngine)?
    private var statementCache: [String: Statement] = [:]
    /// Seconds from 1970 to the epoch dates are stored against (Core Data: 2001, 978307200).
    /// Set before the first statement: statements copy it when prepared.
    public var dateEpochSince1970: Double = 0

    /// A connection to a server: statements go to `remote`.
    public init(remote: any RemoteEngine) {
        handle = nil
        path = remote.location
        self.remote = remote
    }

    /// SQLite's memory statistics (a global mutex around every allocation it makes) are
    /// off: nothing reads them. Done once, before the process's first connection opens.
    private static let memoryStatisticsOff: Bool = vellum_sqlite_disable_memory_statistics() == SQLITE_OK

    public init(path: String, options: OpenOptions = OpenOptions()) throws(StoreError) {
        _ = Self.memoryStatisticsOff
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        flags |= options.readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if options.create && !options.readOnly { flags |= SQLITE_OPEN_CREATE }
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let ext = db.map { sqlite3_extended_errcode($0) } ?? rc
            let errno = db.map { sqlite3_system_errno($0) } ?? 0
            if let db { sqlite3_close_v2(db) }
            throw .sqlite(SQLiteFailure(code: rc & 0xff, extendedCode: ext, message: "cannot open \(path): \(message)", sql: nil,
                                        systemErrno: errno))
        }
        handle = db
        self.path = path
        remote = nil
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, options.busyTimeoutMilliseconds)
        do throws(StoreError) {
            // Touch the schema first so that a non-database file fails here, before any pragma writes.
            try execute("SELECT count(*) FROM sqlite_master")
            if options.journalModeWAL && !options.readOnly && path != ":memory:" && !path.isEmpty {
                let mode = try scalarText("PRAGMA journal_mode")
                if mode?.lowercased() != "wal" { try execute("PRAGMA journal_mode=WAL") }
            }
            try execute(options.enforcesForeignKeys ? "PRAGMA foreign_keys=ON" : "PRAGMA foreign_keys=OFF")
            try execute("PRAGMA synchronous=NORMAL")
            if options.queryOnly { try execute("PRAGMA query_only=ON") }
            if !options.checkpointsOnClose {
                let rc = vellum_sqlite_disable_checkpoint_on_close(db)
                if rc != SQLITE_OK { throw failure(rc, sql: "sqlite3_db_config(SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE)") }
            }
            SQLFunctions.register(on: db)
        } catch {
            statementCache.removeAll()
            sqlite3_close_v2(db)
            if case .sqlite(let f) = error, f.kind == .notADatabase || f.kind == .corrupt {
                throw .notADatabase(path: path, detail: f.message)
            }
            throw error
        }
    }

    deinit {
        statementCache.removeAll()
        if remote == nil { sqlite3_close_v2(handle) }
    }

    func failure(_ rc: Int32, sql: String?) -> StoreError {
        .sqlite(SQLiteFailure(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle),
                              message: String(cString: sqlite3_errmsg(handle)), sql: sql, systemErrno: sqlite3_system_errno(handle)))
    }

    // MARK: - Statements

    /// A prepared statement from the per-connection cache; reset and cleared of bindings.
    public func cachedStatement(_ sql: String) throws(StoreError) -> Statement {
        if let s = statementCache[sql] {
            s.reset()
            return s
        }
        let s = try Statement(connection: self, sql: sql)
        statementCache[sql] = s
        return s
    }

    /// A new statement, not cached (for one-off SQL).
    public func prepare(_ sql: String) throws(StoreError) -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// Runs one or more statements without results.
    public func execute(_ sql: String) throws(StoreError) {
        if let remote { return try remote.execute(sql) }
        var errmsg: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &errmsg)
        if rc != SQLITE_OK {
            let message = errmsg.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(errmsg)
            throw .sqlite(SQLiteFailure(code: rc & 0xff, extendedCode: sqlite3_extended_errcode(handle), message: message, sql: sql,
                                        systemErrno: sqlite3_system_errno(handle)))
        }
    }

    /// Runs one statement without bindings or results, prepared once per connection:
    /// for the few fixed statements every write repeats (BEGIN, COMMIT, savepoints),
    /// which `execute` would parse each time.
    public func executeCached(_ sql: String) throws(StoreError) {
        if let remote { return try remote.execute(sql) }
        try cachedStatement(sql).runToCompletion()
    }

    /// The SQL of the statements cached on this connection (tests read their query plans).
    var cachedStatementSQL: [String] { Array(statementCache.keys) }

    /// Rows the last INSERT, UPDATE or DELETE changed (SQLite; -1 through a server).
    public var changedRows: Int { handle == nil ? -1 : Int(sqlite3_changes64(handle)) }

    /// Runs a statement with bindings and no results.
    public func run(_ sql: String, _ values: [Value] = []) throws(StoreError) {
        let s = try cachedStatement(sql)
        try s.bind(values)
        try s.runToCompletion()
    }

    /// All rows of a query, as arrays of values.
    public func rows(_ sql: String, _ values: [Value] = []) throws(StoreError) -> [[Value]] {
        let s = try cachedStatement(sql)
        try s.bind(values)
        var out: [[Value]] = []
        while try s.step() {
            out.append((0..<s.columnCount).map { s.value(at: $0) })
        }
        return out
    }

    public func scalarText(_ sql: String, _ values: [Value] = []) throws(StoreError) -> String? {
        try scalar(sql, values)?.stringValue
    }

    public func scalarInt(_ sql: String, _ values: [Value] = []) throws(StoreError) -> Int64? {
        try scalar(sql, values)?.integerValue
    }

    /// The first column of the first row (nil when there is none), read without building
    /// the rows: every save asks one (its first key), where `rows` allocated two arrays.
    private func scalar(_ sql: String, _ values: [Value]) throws(StoreError) -> Value? {
        let s = try cachedStatement(sql)
        try s.bind(values)
        guard try s.step(), s.columnCount > 0 else { return nil }
        let value = s.value(at: 0)
        s.rewind()
        return value
    }

    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
    public var changes: Int { Int(sqlite3_changes(handle)) }
    public var isInTransaction: Bool { remote?.isInTransaction ?? (sqlite3_get_autocommit(handle) == 0) }

    /// Turns triggers off (or on) for this connection only. The store's writer turns them
    /// off: Vellum records its own history, the triggers are for everyone else.
    public func setTriggersEnabled(_ enabled: Bool) throws(StoreError) {
        guard remote == nil else { return }
        let rc = vellum_sqlite_enable_triggers(handle, enabled ? 1 : 0)
        if rc != SQLITE_OK { throw failure(rc, sql: "sqlite3_db_config(SQLITE_DBCONFIG_ENABLE_TRIGGER)") }
    }

    /// `PRAGMA data_version`: changes when another connection commits to the file.
    public func dataVersion() throws(StoreError) -> Int64 {
        try scalarInt("PRAGMA data_version") ?? 0
    }

    // MARK: - Transactions

    public enum TransactionKind: String, Sendable { case deferred = "DEFERRED", immediate = "IMMEDIATE", exclusive = "EXCLUSIVE" }

    /// Runs `body` in a transaction; commits if it returns, rolls back if it throws.
    /// Writers use `.immediate` so the write lock is taken up front (no deadlock on upgrade).
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue)")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // The first error is the one to report; a ROLLBACK that fails too adds nothing to it.
            if isInTransaction { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// True if a table of that name exists.
    public func tableExists(_ name: String) throws(StoreError) -> Bool {
        if let remote { return try remote.tableExists(name) }
        return try scalarInt("SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?", [.string(name)]) ?? 0 > 0
    }
}

/// Quotes an SQL identifier for SQLite (SQL about the file itself; store tables go through the layout's dialect).
public func quoteIdentifier(_ name: String) -> String {
    SQLiteDialect().quote(name)
}
