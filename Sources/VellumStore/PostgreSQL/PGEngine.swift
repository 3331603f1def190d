import Foundation

/// PostgreSQL behind a `Connection`, so that contexts, loaders and the save writer
/// run over it unchanged. Their SQL comes from the layout's dialect, except the few
/// spellings they share with SQLite, translated here: `?` placeholders become
/// `$1…$N`, and SQLite's transaction verbs become PostgreSQL's.
public final class PGEngine: RemoteEngine {
    public let connection: PGConnection
    /// Key of the transaction-level advisory lock that writers of one store take
    /// (`BEGIN IMMEDIATE`): like SQLite's write lock, it makes a save's conflict checks
    /// and key allocation see every earlier commit and no concurrent one.
    let writeLockKey: Int64

    public init(connection: PGConnection) {
        self.connection = connection
        let digest = SHA256.hex("vellum-writer:" + (connection.url.schema ?? "") + ":" + connection.url.connectionString)
        writeLockKey = Int64(bitPattern: UInt64(digest.prefix(16), radix: 16) ?? 0)
    }

    public var location: String { connection.url.description }
    public var isInTransaction: Bool { connection.isInTransaction }

    public func execute(_ sql: String) throws(StoreError) {
        switch sql {
        case "BEGIN IMMEDIATE", "BEGIN EXCLUSIVE":
            try connection.execute("BEGIN; SELECT pg_advisory_xact_lock(\(writeLockKey))")
        case "BEGIN DEFERRED":
            try connection.execute("BEGIN")
        default:
            try connection.execute(sql)
        }
    }

    public func prepare(_ sql: String) throws(StoreError) -> any RemoteCursor {
        PGCursor(connection: connection, sql: PGPlaceholders.numbered(sql))
    }

    public func tableExists(_ name: String) throws(StoreError) -> Bool {
        try connection.scalar("SELECT to_regclass(quote_ident($1)) IS NOT NULL", [.string(name)]) == .bool(true)
    }
}

/// The rows of one statement run by `PGEngine`.
final class PGCursor: RemoteCursor {
    let connection: PGConnection
    let sql: String
    private var result: PGResult?
    private var row = -1

    init(connection: PGConnection, sql: String) {
        self.connection = connection
        self.sql = sql
    }

    func run(_ values: [Value]) throws(StoreError) {
        result = nil
        row = -1
        result = try connection.query(sql, values, untypedText: true)
    }

    func next() -> Bool {
        guard let result else { return false }
        row += 1
        return row < result.rowCount
    }

    var columnCount: Int { result?.columnCount ?? 0 }
    var affectedRows: Int { result?.affectedRows ?? 0 }
    func isNull(_ column: Int) -> Bool { result?.isNull(row, column) ?? true }
    func value(at column: Int) -> Value { result?.value(row, column) ?? .null }
    func value(at column: Int, as type: AttributeType) -> Value { result?.value(row, column, as: type) ?? .null }
}
