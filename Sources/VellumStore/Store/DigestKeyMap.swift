import Foundation

/// Finding rows of a table whose object keys digest its key columns (another program's text
/// or composite key) by the key alone. The digest has no index in the file, and none can be
/// added to it, so each connection keeps a TEMP table from digest to the key columns' values
/// as stored, filled by one scan of the table when first needed and topped up (another scan)
/// when a key is not in it; the row is then found through the primary-key index by those
/// values and the digest (`KeyColumnMatch`'s condition). A digest is a function of the values,
/// so an entry never goes wrong: a row deleted since is simply not found. TEMP objects live in
/// the connection's own temporary schema; the file is not changed.
public struct DigestKeyMap: Sendable {
    /// The key columns, as the table spells them.
    public let columns: [String]
    let create: String
    let fill: String
    let lookup: String
    let exists: String

    /// `table`: the table's quoted name; `key`: SQL over its own columns for a row's key.
    init(table: String, columns: [String], key: String, dialect: any SQLDialect) {
        self.columns = columns
        let name = "_vellum_keys " + table
        let map = "temp." + dialect.quote(name)
        let list = columns.map(dialect.quote).joined(separator: ", ")
        self.create = "CREATE TEMP TABLE IF NOT EXISTS \(dialect.quote(name)) (digest INTEGER PRIMARY KEY, \(list))"
        self.fill = "INSERT OR IGNORE INTO \(map) SELECT \(key), \(list) FROM main.\(dialect.quote(table)) WHERE \(key) NOT IN (SELECT digest FROM \(map))"
        self.lookup = "SELECT \(list) FROM \(map) WHERE digest = ?"
        self.exists = "SELECT count(*) FROM temp.sqlite_master WHERE type = 'table' AND name = \(dialect.literal(name))"
    }

    /// The key columns' values of the rows whose keys are `keys`, as stored, and the keys of
    /// rows whose key is NULL (known by their rowid's digest: found by that digest alone); a
    /// key no row has is in neither. The map is made on first use and topped up once per
    /// call that misses a key.
    func values(of keys: [Int64], _ connection: Connection) throws -> (values: [Int64: [Value]], nullKeyed: Set<Int64>) {
        if try connection.scalarInt(exists) == 0 {
            try connection.allowingTemporaryObjects { () throws(StoreError) in
                try connection.run(create)
                try connection.run(fill)
            }
        }
        var found: [Int64: [Value]] = [:]
        var nullKeyed: Set<Int64> = []
        var missing: [Int64] = []
        /// False when the map has no entry for `key`.
        func look(_ key: Int64) throws -> Bool {
            let s = try connection.cachedStatement(lookup)
            s.rewind()
            s.bind(key, at: 1)
            guard try s.step() else { return false }
            let row = (0..<columns.count).map { s.value(at: $0) }
            try s.runToCompletion()
            if row.contains(where: \.isNull) { nullKeyed.insert(key) } else { found[key] = row }
            return true
        }
        for key in keys {
            if try !look(key) { missing.append(key) }
        }
        guard !missing.isEmpty else { return (found, nullKeyed) }
        try connection.allowingTemporaryObjects { () throws(StoreError) in try connection.run(fill) }
        for key in missing { _ = try look(key) }
        return (found, nullKeyed)
    }
}
