import Foundation

/// A Core Data SQLite store opened to read its metadata, model cache and schema, changing
/// nothing: without a `-wal` beside it the file is opened `immutable=1` (no lock, no
/// journal, no sidecar files); with one, read-only, so the pending WAL content is seen.
public final class CoreDataStoreFile {
    public let path: String
    let connection: Connection

    public init(path: String) throws(StoreError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        self.path = path
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        connection = try Connection(path: Self.uri(path, immutable: !hasWAL), options: .init(readOnly: true))
        guard try Self.hasCoreDataTables(connection) else {
            throw .notADatabase(path: path, detail: "not a Core Data store: no Z_METADATA and Z_PRIMARYKEY tables")
        }
    }

    /// True when `path` is a SQLite file with Core Data's `Z_METADATA` and `Z_PRIMARYKEY`
    /// tables. Reads only; a file that is not SQLite is never opened by SQLite.
    public static func isCoreDataStore(path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        let header = (try? handle.read(upToCount: 16)) ?? Data()
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else { return false }
        let hasWAL = FileManager.default.fileExists(atPath: path + "-wal")
        guard let c = try? Connection(path: uri(path, immutable: !hasWAL), options: .init(readOnly: true)) else { return false }
        return (try? hasCoreDataTables(c)) == true
    }

    private static func hasCoreDataTables(_ c: Connection) throws(StoreError) -> Bool {
        guard try c.tableExists("Z_METADATA") else { return false }
        return try c.tableExists("Z_PRIMARYKEY")
    }

    /// A `file:` URI for `path` (percent-encoded), read-only or immutable.
    static func uri(_ path: String, immutable: Bool) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let encoded = path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
        return "file:\(encoded)?" + (immutable ? "immutable=1" : "mode=ro")
    }

    /// `Z_METADATA`: the store's UUID and its metadata plist.
    public func metadata() throws(StoreError) -> CoreDataMetadata {
        let rows = try connection.rows("SELECT Z_VERSION, Z_UUID, Z_PLIST FROM Z_METADATA" + SQLiteDialect().limitOffset(limit: 1, offset: nil))
        guard let row = rows.first, row.count == 3 else {
            throw .malformedCoreData(what: "\(path): Z_METADATA", offset: nil, reason: "the table has no row")
        }
        guard case .data(let plist) = row[2] else {
            throw .malformedCoreData(what: "\(path): Z_METADATA.Z_PLIST", offset: nil, reason: "not a blob")
        }
        let uuid: String
        if case .string(let s) = row[1] { uuid = s } else { uuid = "" }
        return try CoreDataMetadata(plist: BinaryPlistReader.read(plist, what: "\(path): Z_METADATA.Z_PLIST"), uuid: uuid)
    }

    /// The compressed `Z_MODELCACHE.Z_CONTENT`, nil when the store has no cache.
    public func compressedModelCache() throws(StoreError) -> Data? {
        guard try connection.tableExists("Z_MODELCACHE") else { return nil }
        guard case .data(let d)? = try connection.rows("SELECT Z_CONTENT FROM Z_MODELCACHE" + SQLiteDialect().limitOffset(limit: 1, offset: nil)).first?.first else { return nil }
        return d
    }

    /// The inflated model cache (an NSKeyedArchiver binary plist), nil without a cache.
    public func modelCacheArchive() throws(StoreError) -> Data? {
        try compressedModelCache().map { d throws(StoreError) in try RawInflate.inflate(d, what: "\(path): Z_MODELCACHE") }
    }

    /// The rows of `Z_PRIMARYKEY`, by entity number.
    public func primaryKeyRows() throws(StoreError) -> [CoreDataEntityRow] {
        try connection.rows("SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { row in
            CoreDataEntityRow(number: row[0].integerValue ?? 0, name: row[1].stringValue ?? "",
                              superNumber: row[2].integerValue ?? 0, maxKey: row[3].integerValue ?? 0)
        }
    }

    /// Rows per `Z_ENT` value in a table (sub-entities share their root's table).
    public func rowCounts(table: String) throws(StoreError) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        for row in try connection.rows("SELECT Z_ENT, count(*) FROM \(quoteIdentifier(table)) GROUP BY Z_ENT") {
            out[row[0].integerValue ?? 0] = Int(row[1].integerValue ?? 0)
        }
        return out
    }
}

/// One row of `Z_PRIMARYKEY`: an entity's number, stored name, parent number, last key.
public struct CoreDataEntityRow: Sendable, Hashable {
    public var number: Int64
    public var name: String
    public var superNumber: Int64
    public var maxKey: Int64
}
