import CSQLite
import Foundation

/// A prepared statement with typed binding and reading. On a server connection
/// (`Connection.remote`) the values bound are collected and sent when the first
/// row is asked for; SQLite statements only test `remote` for nil.
public final class Statement {
    /// The SQLite statement; nil on a server connection.
    let handle: OpaquePointer!
    unowned let connection: Connection
    public let sql: String
    private let sqliteColumnCount: Int
    /// The server's statement (`Connection.remote`), with the values bound so far.
    let remote: (any RemoteCursor)?
    private var remoteValues: [Value] = []
    private var remoteHasRun = false

    public var columnCount: Int { remote?.columnCount ?? sqliteColumnCount }
    /// The connection's date epoch (seconds since 1970), copied: read on every date.
    let dateEpoch: Double

    init(connection: Connection, sql: String) throws(StoreError) {
        self.connection = connection
        self.sql = sql
        dateEpoch = connection.dateEpochSince1970
        if let engine = connection.remote {
            remote = try engine.prepare(sql)
            handle = nil
            sqliteColumnCount = 0
            return
        }
        remote = nil
        var stmt: OpaquePointer?
        let rc = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw connection.failure(rc, sql: sql) }
        handle = stmt
        sqliteColumnCount = Int(sqlite3_column_count(stmt))
    }

    deinit { if remote == nil { sqlite3_finalize(handle) } }

    public func reset() {
        if remote != nil {
            remoteValues.removeAll(keepingCapacity: true)
            remoteHasRun = false
            return
        }
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Back to before the first row, keeping the bound values (they are all bound again next).
    public func rewind() {
        if remote != nil { remoteHasRun = false; return }
        sqlite3_reset(handle)
    }

    /// Keeps a value for the server statement's placeholder `index` (1-based).
    private func bindRemote(_ value: Value, at index: Int32) {
        let i = Int(index) - 1
        if remoteValues.count <= i { remoteValues.append(contentsOf: repeatElement(Value.null, count: i + 1 - remoteValues.count)) }
        remoteValues[i] = value
    }

    // MARK: Binding (1-based indices, as SQLite)

    public func bind(_ values: [Value]) throws(StoreError) {
        for (i, v) in values.enumerated() { try bind(v, at: Int32(i + 1)) }
    }

    public func bind(_ value: Value, at index: Int32) throws(StoreError) {
        if remote != nil { return bindRemote(value, at: index) }
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(handle, index)
        case .integer(let i): rc = sqlite3_bind_int64(handle, index, i)
        case .bool(let b): rc = sqlite3_bind_int64(handle, index, b ? 1 : 0)
        case .double(let d): rc = sqlite3_bind_double(handle, index, d)
        case .date(let d): rc = sqlite3_bind_double(handle, index, d.timeIntervalSince1970 - dateEpoch)
        case .string(let s): rc = bindText(s, at: index)
        case .decimal(let d): rc = bindText("\(d)", at: index)
        case .uri(let u): rc = bindText(u.absoluteString, at: index)
        case .uuid(let u): rc = bindData(withUnsafeBytes(of: u.uuid) { Data($0) }, at: index)
        case .data(let d): rc = bindData(d, at: index)
        }
        if rc != SQLITE_OK { throw connection.failure(rc, sql: sql) }
    }

    public func bind(_ i: Int64, at index: Int32) {
        if remote != nil { return bindRemote(.integer(i), at: index) }
        sqlite3_bind_int64(handle, index, i)
    }
    public func bind(_ d: Double, at index: Int32) {
        if remote != nil { return bindRemote(.double(d), at: index) }
        sqlite3_bind_double(handle, index, d)
    }
    public func bindNull(at index: Int32) {
        if remote != nil { return bindRemote(.null, at: index) }
        sqlite3_bind_null(handle, index)
    }
    @discardableResult
    public func bindText(_ s: String, at index: Int32) -> Int32 {
        if remote != nil { bindRemote(.string(s), at: index); return SQLITE_OK }
        var s = s
        return s.withUTF8 { buf -> Int32 in
            guard let base = buf.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, sqliteTransient) }
            return sqlite3_bind_text(handle, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(buf.count), sqliteTransient)
        }
    }
    @discardableResult
    public func bindData(_ d: Data, at index: Int32) -> Int32 {
        if remote != nil { bindRemote(.data(d), at: index); return SQLITE_OK }
        return d.withUnsafeBytes { buf in
            sqlite3_bind_blob(handle, index, buf.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buf.count), sqliteTransient)
        }
    }

    // MARK: Stepping

    /// Advances to the next row; false when done.
    public func step() throws(StoreError) -> Bool {
        if let remote {
            if !remoteHasRun {
                remoteHasRun = true
                try remote.run(remoteValues)
            }
            return remote.next()
        }
        let rc = sqlite3_step(handle)
        if rc == SQLITE_ROW { return true }
        if rc == SQLITE_DONE { return false }
        let error = connection.failure(rc, sql: sql)
        sqlite3_reset(handle)
        throw error
    }

    public func runToCompletion() throws(StoreError) {
        while try step() {}
    }

    // MARK: Reading (0-based columns)

    public func isNull(_ i: Int) -> Bool {
        if let remote { return remote.isNull(i) }
        return sqlite3_column_type(handle, Int32(i)) == SQLITE_NULL
    }
    /// Calls `body` with column `i`'s UTF-8 bytes when it holds text (SQLite's storage
    /// class; false, without calling it, for other values and on a server connection).
    /// One read of the column: each `sqlite3_column_*` call re-validates the statement.
    func withTextIfText(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard remote == nil, let v = sqlite3_column_value(handle, Int32(i)), sqlite3_value_type(v) == SQLITE_TEXT else { return false }
        let p = sqlite3_value_text(v)
        body(UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))))
        return true
    }
    public func int64(_ i: Int) -> Int64 {
        if let remote { return remote.value(at: i).integerValue ?? 0 }
        return sqlite3_column_int64(handle, Int32(i))
    }
    /// Column `i` of the current row as an unprotected `sqlite3_value`, for reading it
    /// more than once (`rowVersion(_:columns:)`, then `value(_:at:as:)`): each
    /// `sqlite3_column_value` call re-validates the statement. Nil on a server connection.
    func columnValue(_ i: Int) -> OpaquePointer? {
        remote == nil ? sqlite3_column_value(handle, Int32(i)) : nil
    }

    /// `vellum_row_version` of the current row's `columns`, from their values as
    /// `columnValue` read them (`RowVersionFunction.digest`): equal to the SQL function
    /// over the same table columns. Before the values are decoded. SQLite only (the
    /// layouts whose versions are digests read SQLite files).
    func rowVersion(_ values: UnsafePointer<OpaquePointer?>, columns: [Int]) -> Int64 {
        precondition(remote == nil, "row versions are digested from SQLite rows only")
        return columns.withUnsafeBufferPointer { c in RowVersionFunction.digest(c.count) { values[c[$0]] } }
    }
    public func double(_ i: Int) -> Double {
        if let remote { return remote.value(at: i).doubleValue ?? 0 }
        return sqlite3_column_double(handle, Int32(i))
    }
    public func string(_ i: Int) -> String {
        if let remote { return remote.value(at: i).stringValue ?? "" }
        guard let p = sqlite3_column_text(handle, Int32(i)) else { return "" }
        let n = Int(sqlite3_column_bytes(handle, Int32(i)))
        return String(decoding: UnsafeBufferPointer(start: p, count: n), as: UTF8.self)
    }
    /// Calls `body` with the column's UTF-8 bytes, without copying them into a String.
    public func withText<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if remote != nil {
            var text = string(i)
            return text.withUTF8(body)
        }
        let n = Int(sqlite3_column_bytes(handle, Int32(i)))
        return body(UnsafeBufferPointer(start: sqlite3_column_text(handle, Int32(i)), count: n))
    }

    public func data(_ i: Int) -> Data {
        if let remote { return remote.value(at: i).dataValue ?? Data() }
        let n = Int(sqlite3_column_bytes(handle, Int32(i)))
        guard n > 0, let p = sqlite3_column_blob(handle, Int32(i)) else { return Data() }
        return Data(bytes: p, count: n)
    }

    /// A value's bytes (blob first, then its size, as SQLite's documentation orders the calls).
    private static func blob(_ v: OpaquePointer) -> Data {
        guard let p = sqlite3_value_blob(v) else { return Data() }
        let n = Int(sqlite3_value_bytes(v))
        return n > 0 ? Data(bytes: p, count: n) : Data()
    }

    /// The column's value by its SQLite storage class.
    public func value(at i: Int) -> Value {
        if let remote { return remote.value(at: i) }
        switch sqlite3_column_type(handle, Int32(i)) {
        case SQLITE_INTEGER: return .integer(int64(i))
        case SQLITE_FLOAT: return .double(double(i))
        case SQLITE_TEXT: return .string(string(i))
        case SQLITE_BLOB: return .data(data(i))
        default: return .null
        }
    }

    /// The column's value decoded as the given attribute type.
    ///
    /// Reads the column's `sqlite3_value` once and decodes it with the
    /// `sqlite3_value_*` readers: each `sqlite3_column_*` call re-validates the
    /// statement, and a row of ten columns would make thirty of them. Reading an
    /// unprotected value this way is safe because a connection is used by one
    /// thread at a time (opened with `SQLITE_OPEN_NOMUTEX`).
    public func value(at i: Int, as type: AttributeType) -> Value {
        if let remote { return remote.value(at: i, as: type) }
        return value(sqlite3_column_value(handle, Int32(i)), at: i, as: type)
    }

    /// `value(at:as:)` of column `i`, whose value `columnValue(i)` already read (`v`).
    func value(_ v: OpaquePointer?, at i: Int, as type: AttributeType) -> Value {
        if let remote { return remote.value(at: i, as: type) }
        guard let v else { return .null }
        let storage = sqlite3_value_type(v)
        if storage == SQLITE_NULL { return .null }
        switch type {
        case .string, .transformable:
            guard let p = sqlite3_value_text(v) else { return .string("") }
            return .string(String(decoding: UnsafeBufferPointer(start: p, count: Int(sqlite3_value_bytes(v))), as: UTF8.self))
        case .integer16, .integer32, .integer64:
            return storage == SQLITE_INTEGER ? .integer(sqlite3_value_int64(v)) : Value.lenient(value(at: i), as: type)
        case .boolean:
            return storage == SQLITE_INTEGER ? .bool(sqlite3_value_int64(v) != 0) : Value.lenient(value(at: i), as: type)
        case .double, .float:
            return storage == SQLITE_TEXT || storage == SQLITE_BLOB ? Value.lenient(value(at: i), as: type) : .double(sqlite3_value_double(v))
        case .date:
            return storage == SQLITE_TEXT ? Value.lenient(value(at: i), as: type) : .date(Date(timeIntervalSince1970: sqlite3_value_double(v) + dateEpoch))
        case .decimal:
            if storage == SQLITE_TEXT, let d = Decimal(string: string(i)) { return .decimal(d) }
            return Value.lenient(value(at: i), as: type)
        case .binary:
            return .data(Self.blob(v))
        case .uuid:
            // Read in place: a 16-byte `Data` made only to be read is a heap allocation and
            // its release per row (≈ 1,600 instructions of `coredata-fetch-100k`'s UUIDs).
            if storage == SQLITE_BLOB, let p = sqlite3_value_blob(v), sqlite3_value_bytes(v) == 16 {
                return .uuid(UUID(uuid: UnsafeRawPointer(p).loadUnaligned(as: uuid_t.self)))
            }
            if storage == SQLITE_TEXT, let u = UUID(uuidString: string(i)) { return .uuid(u) }
            return .data(Self.blob(v))
        case .uri:
            return URL(string: string(i)).map(Value.uri) ?? .string(string(i))
        case .undefined, .composite:
            return value(at: i)
        }
    }
}

extension Value {
    /// Best-effort decoding of a value written by something other than Vellum
    /// (the sqlite3 shell may store any type in any column): keep it readable
    /// rather than failing.
    static func lenient(_ raw: Value, as type: AttributeType) -> Value {
        switch (type, raw) {
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            return d == d.rounded() && abs(d) < 9e18 ? .integer(Int64(d)) : raw
        case (.integer16, .string(let s)), (.integer32, .string(let s)), (.integer64, .string(let s)):
            return Int64(s).map(Value.integer) ?? raw
        case (.boolean, .double(let d)): return .bool(d != 0)
        case (.boolean, .string(let s)): return ["1", "true", "yes"].contains(s.lowercased()) ? .bool(true) : (["0", "false", "no"].contains(s.lowercased()) ? .bool(false) : raw)
        case (.double, .string(let s)), (.float, .string(let s)): return Double(s).map(Value.double) ?? raw
        case (.date, .string(let s)): return Value.parseISO8601(s).map(Value.date) ?? raw
        case (.decimal, .integer(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)): return .decimal(Decimal(d))
        default: return raw
        }
    }
}
