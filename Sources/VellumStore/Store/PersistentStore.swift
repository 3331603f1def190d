import CSQLite
import Foundation

/// Options for opening a store.
public struct StoreOptions: Sendable {
    /// Create the file (and schema) when it does not exist.
    public var createIfMissing: Bool
    /// Open for reading only; saves fail with `readOnly`.
    public var readOnly: Bool
    /// A private in-memory database (tests, previews); the URL is ignored.
    public var inMemory: Bool
    /// How long one statement waits for another connection's lock.
    public var busyTimeoutMilliseconds: Int32
    /// Attempts to take the write lock before a save gives up with `busy`.
    public var writeRetries: Int
    /// Record persistent history (triggers) in a newly created store.
    public var recordsHistory: Bool = true
    /// Every connection checks foreign keys (`PRAGMA foreign_keys=ON`). False opens
    /// another program's database as SQLite does by default: references are not
    /// checked, its `ON DELETE` actions do not run, and its inferred model's delete
    /// rules say so (`noAction`), so deleting a referenced row leaves the rows that
    /// refer to it as they are (`--no-foreign-keys`).
    public var enforcesForeignKeys: Bool = true
    /// Only create: fail with `fileExists` when anything is at the path (even
    /// a store another process created a moment before).
    public var createOnly: Bool = false
    /// How the model maps onto tables: Vellum's own layout (`docs/store-format.md`)
    /// unless a test gives another. Must match the layout the file was created with.
    public var layout: @Sendable (ManagedObjectModel) -> any StoreLayout = { NativeLayout(model: $0) }
    /// How other writers' changes are detected (object by object from history, or coarsely).
    public var changeDetection: ChangeDetection = .automatic
    /// Called when the file holds another model than the one given (stored, given); when it
    /// returns the store is opened with the given model. Nil: `modelMismatch`. Set by
    /// `PersistentContainer`'s migration policy (`docs/migration.md`).
    public var migrateOnMismatch: (@Sendable (_ path: String, _ stored: ManagedObjectModel, _ model: ManagedObjectModel) throws(StoreError) -> Void)?
    /// The same for a store in a PostgreSQL schema (`init(postgreSQL:…)`), given the store's URL
    /// (with its password, which `path` never shows). Nil: `modelMismatch`.
    public var migrateServerOnMismatch: (@Sendable (_ url: PostgreSQLURL, _ stored: ManagedObjectModel, _ model: ManagedObjectModel) throws(StoreError) -> Void)?

    public init(createIfMissing: Bool = true, readOnly: Bool = false, inMemory: Bool = false,
                busyTimeoutMilliseconds: Int32 = 2000, writeRetries: Int = 5) {
        self.createIfMissing = createIfMissing
        self.readOnly = readOnly
        self.inMemory = inMemory
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.writeRetries = writeRetries
    }

    public static let inMemory = StoreOptions(inMemory: true)
}

/// One SQLite store file: its model, layout and identity, the single writer
/// connection all saves go through, and a factory for reader connections
/// (one per context; WAL lets them read committed snapshots while the writer works).
// Unchecked: `writer` (a non-Sendable connection) and `pendingHistory` are only touched
// while `writerLock` is held; callers' closures reach them, so they cannot live inside it.
public final class PersistentStore: @unchecked Sendable {
    public let path: String
    public let model: ManagedObjectModel
    public let layout: any StoreLayout
    /// The store's UUID, part of every permanent object ID's URI.
    public let identifier: String
    /// Permanent object-ID scopes per entity name, made once.
    private let idScopes: [String: ObjectIDScope]
    public let options: StoreOptions
    /// How the file's connections are opened (read-only use never leaves files behind).
    let access: StoreFileAccess
    /// True when the store refuses saves (opened read-only).
    public var isReadOnly: Bool { access.isReadOnly }
    /// True when the store is read from its main file without locks (read-only, nothing
    /// else had it open): changes made by others after opening are not seen.
    public var readsSnapshot: Bool { access == .immutable }
    /// True when the file records persistent history.
    public let hasHistory: Bool
    /// True for another program's database (`init(foreignURL:…)`): its journal
    /// mode and triggers are left as they are.
    public let isForeign: Bool
    /// Why saves are refused although the file could be written (a Core Data store Vellum
    /// cannot yet write as Core Data would, `CoreDataWriteCheck`), or nil.
    public private(set) var writeRefusal: String?
    let writer: Connection
    let writerLock = Locked(())
    let broadcast = SaveBroadcast()
    let temporaryIDs = TemporaryIDMap()
    /// History transactions written by this store object (the monitor skips them).
    let ownTransactions = OwnTransactions()
    /// The write group in progress on the write queue's thread, if any.
    let group = GroupCommit()
    /// The SQL texts saves write with, built once (`SaveSQLCache`).
    let saveSQL = SaveSQLCache()
    /// History of the write in progress (only touched under the writer lock).
    var pendingHistory: PendingHistory?
    /// Another program's database: the schema its layout was made from, and its version,
    /// read in one transaction. The change monitor compares with it, so a change committed
    /// between opening and watching is reported (`RemoteChangeMonitor.readSchema`).
    private(set) var openedSchema: (version: Int64, tables: [String: TableInfo])?
    /// `PRAGMA schema_version` when the model hash was last seen to match (writer lock).
    private var knownSchemaVersion: Int64 = 0
    struct PendingHistory {
        var author: String?
        var sequence: Int64?
    }

    static let metadataTable = "_vellum_metadata"
    static let formatVersion = "1"
    /// SQLite's header field `application_id` in every store Vellum creates or migrates
    /// ("VLUM"): the file's first 100 bytes say it is a Vellum store. Older stores lack it.
    static let applicationID: UInt32 = 0x564C_554D

    /// Throws `notAStore` or `coreDataStore` when the file is another program's
    /// database, judged from its main file alone, opened `immutable` so that no
    /// `-wal`/`-shm` file appears beside it (a normal read of a WAL-mode database
    /// creates them). Only a clear verdict on a quiet file counts: while a `-wal`
    /// has content the main file may lack what the log holds, or be mid-checkpoint
    /// (read without locks it then looks "malformed"), so the normal probe decides;
    /// so it does when the immutable read fails or the file changed while it was read.
    /// A WAL-mode file whose header carries Vellum's `application_id` is taken at its word
    /// (no probe connection: opening and migrating parse the schema once, not twice); should
    /// another program's file carry both, the normal open, which changes nothing in it,
    /// still finds no metadata and refuses it.
    static func refuseForeignDatabase(at path: String) throws(StoreError) {
        guard StoreFileCheck.walSize(path) == 0, !StoreFileCheck.isMarkedVellumStore(path) else { return }
        let before = FileStamp(path)
        let isCoreData: Bool
        do {
            let main = try Connection(path: immutableURI(path), options: .init(readOnly: true, journalModeWAL: false))
            if try main.tableExists(metadataTable) { return }
            isCoreData = try main.tableExists("Z_METADATA") && main.tableExists("Z_PRIMARYKEY")
        } catch {
            return  // not a database, or unreadable without locks: the normal probe reports it
        }
        guard StoreFileCheck.walSize(path) == 0, FileStamp(path) == before else { return }
        throw isCoreData ? .coreDataStore(path: path) : .notAStore(path: path)
    }

    /// Writes `applicationID` into the header (in the caller's transaction).
    static var markAsVellumSQL: String { "PRAGMA application_id = \(Int32(bitPattern: applicationID))" }

    /// True when this process may write the file at `path` and its folder (a store
    /// that is not writable can only be opened with `StoreOptions.readOnly`).
    public static func isWritable(_ path: String) -> Bool { StoreFileAccess.isWritable(path) }

    /// `file:` URI for `path` with `immutable=1` (read without locks, WAL or shared memory).
    /// Percent-encoded by hand, byte by byte: Foundation's `addingPercentEncoding` with a
    /// `CharacterSet` cost ≈ 1 M instructions, more than a raw `ALTER TABLE` (`docs/benchmarks.md`).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes = Array("file:".utf8)
        for b in absolute.utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                bytes.append(b)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self) + "?immutable=1"
    }

    /// Opens (or creates) a store. With `model` nil, the model stored in the file is used.
    /// The file is never changed unless it is a Vellum store of this model, or absent and `createIfMissing`.
    public init(url: URL?, model: ManagedObjectModel?, options: StoreOptions = StoreOptions()) throws(StoreError) {
        self.options = options
        let path: String
        if options.inMemory || url == nil {
            path = "file:/vellum-memory-\(UUID().uuidString)?vfs=memdb"
        } else {
            path = url!.path
        }
        self.path = path
        isForeign = false
        var exists = options.inMemory ? false : FileManager.default.fileExists(atPath: path)
        if !options.inMemory {
            if options.createOnly && (exists || Self.isDanglingLink(path)) { throw .fileExists(path: path) }
            if !exists && (!options.createIfMissing || options.readOnly) { throw .fileNotFound(path: path) }
            if exists { try StoreFileCheck.check(path) }
            if exists && !options.readOnly && !StoreFileAccess.isWritable(path) { throw .readOnly(path: path) }
        }
        if !exists && !options.inMemory && url != nil, let model {
            // Built beside the path and linked into place complete; then opened like any store.
            try Self.createStoreFile(at: path, model: model, options: options)
            exists = true
        }
        access = exists ? StoreFileAccess.choose(for: path, options: options) : .readWrite
        // Inspect an existing file without touching it (no WAL switch) before trusting it.
        var storedModel: ManagedObjectModel?
        var storedIdentifier: String?
        if exists {
            try Self.refuseForeignDatabase(at: path)
            var probeAccess = access
            if probeAccess == .readWrite { probeAccess = .sharedReadOnly }
            let probe = try Connection(path: probeAccess.connectionPath(path),
                                       options: probeAccess.openOptions(options, journalModeWAL: false))
            guard try probe.tableExists(Self.metadataTable) else { throw .notAStore(path: path) }
            let meta = try Self.readMetadata(probe)
            storedIdentifier = meta["uuid"]
            if let json = meta["model"] {
                do { storedModel = try ManagedObjectModel.fromJSON(Data(json.utf8)) } catch {
                    throw .invalidOperation("\(path): the model stored in the file cannot be read: \(ErrorText.describe(error))")
                }
            }
            if let model, let storedHash = meta["modelHash"], storedHash != model.versionHash {
                guard let migrate = options.migrateOnMismatch, let storedModel, !options.readOnly else {
                    throw .modelMismatch(path: path, storeHash: storedHash, modelHash: model.versionHash)
                }
                try migrate(path, storedModel, model)
            }
        }
        guard let resolvedModel = model ?? storedModel else {
            throw .invalidOperation("\(path): no model given and none stored in the file")
        }
        self.model = resolvedModel
        self.layout = options.layout(resolvedModel)
        writer = try Connection(path: access.connectionPath(path),
                                options: access.openOptions(options, create: !exists))
        try writer.setTriggersEnabled(false)
        if exists {
            identifier = storedIdentifier ?? ""
            hasHistory = try writer.tableExists(HistorySchema.changes)
        } else {
            let uuid = UUID().uuidString
            identifier = uuid
            hasHistory = options.recordsHistory
            try Self.createSchema(writer, uuid: uuid, model: resolvedModel, layout: layout, history: hasHistory)
        }
        idScopes = Self.scopes(resolvedModel, identifier)
        if exists { try upgradeHistoryTriggersIfNeeded() }
    }

    /// Opens a SQLite database Vellum did not create (`ForeignLayout`). With `model`
    /// nil the model is inferred from the schema (`ForeignModelInference`); a given
    /// model is a mapping onto it and is refused naming the table and column it
    /// does not fit. Opening and reading change nothing: no schema, no journal
    /// mode, no `-wal`/`-shm` beside a rollback-journal database; its triggers stay on
    /// unless Vellum's history was installed with consent (`vellum track`).
    public init(foreignURL url: URL, model: ManagedObjectModel?, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let path = url.path
        self.path = path
        self.options = options
        isForeign = true
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        try StoreFileCheck.check(path)
        if !options.readOnly && !StoreFileAccess.isWritable(path) { throw .readOnly(path: path) }
        access = StoreFileAccess.choose(for: path, options: options)
        writer = try Connection(path: access.connectionPath(path),
                                options: access.openOptions(options, journalModeWAL: false))
        if try writer.tableExists(Self.metadataTable) {
            throw .invalidOperation("\(path): a Vellum store, not another program's database; open it as a store")
        }
        let (schema, opened) = try Self.readForeignSchema(writer)
        openedSchema = opened
        let resolvedModel: ManagedObjectModel
        if let model { resolvedModel = model } else { resolvedModel = try ForeignModelInference.model(for: schema, connection: writer, enforcesForeignKeys: options.enforcesForeignKeys) }
        self.model = resolvedModel
        let foreign = try ForeignLayout(model: resolvedModel, schema: schema, readingDatesFrom: writer)
        try foreign.prepare(writer)
        layout = foreign
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        identifier = "sqlite-" + SHA256.hex(absolute).prefix(16)
        hasHistory = try writer.tableExists(HistorySchema.changes)
        // Tracked (`vellum track`): saves record their own history, as in a Vellum store, so the
        // history triggers must not record them again. Untracked, the database's own triggers run.
        if hasHistory { try writer.setTriggersEnabled(false) }
        idScopes = Self.scopes(resolvedModel, identifier)
    }

    /// A file opened through a layout chosen by the caller (a Core Data store,
    /// `PersistentStore+CoreData`): like another program's database, its schema, metadata
    /// and journal mode are left as they are, and it has no Vellum history.
    init(path: String, options: StoreOptions, access: StoreFileAccess, writer: Connection, model: ManagedObjectModel,
         layout: any StoreLayout, identifier: String, writeRefusal: String?) {
        self.path = path
        self.options = options
        self.access = access
        self.writer = writer
        self.model = model
        self.layout = layout
        self.identifier = identifier
        isForeign = true
        hasHistory = false
        self.writeRefusal = writeRefusal
        writer.dateEpochSince1970 = layout.dateEpochSince1970
        idScopes = Self.scopes(model, identifier, uriScheme: layout is CoreDataLayout ? ObjectID.coreDataScheme : ObjectID.vellumScheme)
    }

    /// The schema of another program's database, with its version and tables as the change
    /// monitor compares them, all as of one moment (one read transaction).
    private static func readForeignSchema(_ c: Connection) throws(StoreError) -> (ForeignSchema, (version: Int64, tables: [String: TableInfo])) {
        do {
            return try c.transaction(.deferred) {
                let version = try c.scalarInt("PRAGMA schema_version") ?? 0
                return (try ForeignSchema.read(c), (version, try TableInfo.read(c)))
            }
        } catch { throw StoreError(nesting: error) }
    }

    /// Opens (or creates, with `createIfMissing` and a model) a store in a PostgreSQL
    /// schema (`PersistentStore+PostgreSQL`). Saves go through one writer connection as
    /// for SQLite; each context reads through a connection of its own.
    public init(postgreSQL url: PostgreSQLURL, model: ManagedObjectModel?, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let opened = try Self.openPostgreSQL(url: url, model: model, options: options)
        path = url.description
        self.options = options
        isForeign = false
        access = options.readOnly ? .queryOnly(keepsLog: false) : .readWrite
        self.model = opened.layout.model
        layout = opened.layout
        identifier = opened.identifier
        hasHistory = opened.hasHistory
        writer = opened.writer
        idScopes = Self.scopes(opened.layout.model, identifier)
        (writer.remote as? PGEngine)?.readAtWriteBegin = "(SELECT value FROM \(quoteIdentifier(Self.metadataTable)) WHERE key = 'modelHash')"
    }

    /// The server behind the store's connections (nil for a SQLite file).
    public var remoteEngine: (any RemoteEngine)? { writer.remote }

    private static func scopes(_ model: ManagedObjectModel, _ identifier: String, uriScheme: String = ObjectID.vellumScheme) -> [String: ObjectIDScope] {
        var scopes: [String: ObjectIDScope] = [:]
        for e in model.entitiesByName.values {
            scopes[e.name] = ObjectIDScope.intern(entityName: e.name, rootName: e.rootName, storeIdentifier: identifier, uriScheme: uriScheme)
        }
        return scopes
    }

    /// The metadata table as key → value.
    static func readMetadata(_ c: Connection) throws(StoreError) -> [String: String] {
        var meta: [String: String] = [:]
        for row in try c.rows("SELECT key, value FROM \(quoteIdentifier(metadataTable))") {
            if let k = row[0].stringValue, let v = row[1].stringValue { meta[k] = v }
        }
        return meta
    }

    static func createSchema(_ writer: Connection, uuid: String, model: ManagedObjectModel, layout: any StoreLayout, history: Bool) throws(StoreError) {
        do {
            try writer.transaction(.immediate) {
                try writer.execute("CREATE TABLE \(quoteIdentifier(Self.metadataTable)) (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                try writer.execute(Self.markAsVellumSQL)
                let meta: [(String, String)] = [
                    ("uuid", uuid), ("format", Self.formatVersion), ("modelHash", model.versionHash),
                    ("model", String(decoding: model.jsonData(), as: UTF8.self)),
                    ("created", Value.iso8601(Date())),
                ]
                for (k, v) in meta {
                    try writer.run("INSERT INTO \(quoteIdentifier(Self.metadataTable)) (key, value) VALUES (?, ?)", [.string(k), .string(v)])
                }
                for statement in layout.schemaSQL() { try writer.execute(statement) }
                if history {
                    for statement in HistorySchema.schemaSQL(layout: layout) { try writer.execute(statement) }
                }
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw .invalidOperation("creating the schema failed: \(ErrorText.describe(error))")
        }
    }

    /// Metadata key/values stored in the file.
    public func metadata() throws -> [String: String] {
        try withWriter { try Self.readMetadata($0) }
    }

    /// Runs `body` with the single writer connection, serialized across threads.
    public func withWriter<T>(_ body: (Connection) throws -> T) rethrows -> T {
        if group.isOwnedByCurrentThread { return try body(writer) }
        return try writerLock.withLock { _ in try body(writer) }
    }

    /// Runs a write transaction on the writer connection, retrying with backoff
    /// while another process holds the lock; then fails with `busy`. Saves record
    /// their history through `historyTransaction()` inside `body`.
    public func writeTransaction<T>(author: String? = nil, recordingHistory: Bool = true, _ body: (Connection) throws -> T) throws -> T {
        if let writeRefusal { throw StoreError.invalidOperation("\(path): cannot write this store: \(writeRefusal)") }
        if isReadOnly { throw StoreError.readOnly(path: path) }
        if group.isOwnedByCurrentThread { return try groupSavepoint(author: author, recordingHistory: recordingHistory, body) }
        // The body is called right in the closure: the checker lets the result of a call
        // of the caller's closure leave the lock, not one passed through another function.
        return try writerLock.withLock { _ in
            try beginImmediateWithRetry()
            pendingHistory = recordingHistory && hasHistory ? PendingHistory(author: author) : nil
            defer { pendingHistory = nil }
            do {
                try refuseIfMigratedElsewhere()
                let result = try body(writer)
                let transaction = pendingHistory?.sequence
                // Marked before COMMIT so the monitor never mistakes it for another writer's.
                if let transaction { ownTransactions.insert(transaction) }
                do { try writer.executeCached("COMMIT") } catch {
                    if let transaction { _ = ownTransactions.consume(transaction) }
                    throw error
                }
                return result
            } catch {
                // The first error is the one to report; a ROLLBACK that fails too adds nothing to it.
                if writer.isInTransaction { try? writer.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Another process may have migrated the file since it was opened, and this store's
    /// SQL would then write rows of the old shape. Any schema change moves the schema
    /// version; only then is the stored model hash read again.
    /// Another program's database has no stored model (its schema changes are reported
    /// by `observeSchemaChanges` instead).
    func refuseIfMigratedElsewhere() throws(StoreError) {
        guard !isForeign else { return }
        // A server has no schema version to watch: its stored hash is read at every write,
        // in the round trip that began the transaction (`PGEngine.readAtWriteBegin`).
        let version = writer.remote == nil ? try writer.scalarInt("PRAGMA schema_version") ?? 0 : -1
        guard version < 0 || version != knownSchemaVersion else { return }
        let hash: String?
        if let read = (writer.remote as? PGEngine)?.valueReadAtWriteBegin {
            hash = read.stringValue
        } else {
            hash = try writer.scalarText("SELECT value FROM \(quoteIdentifier(Self.metadataTable)) WHERE key = 'modelHash'")
        }
        if let hash, hash != model.versionHash { throw .storeModelChanged(path: path) }
        knownSchemaVersion = version
    }

    /// The history transaction of the write in progress, created on first use
    /// (a save that changes nothing leaves none). Nil when history is off.
    func historyTransaction() throws -> Int64? {
        guard let pending = pendingHistory else { return nil }
        if let seq = pending.sequence { return seq }
        let values: [Value] = [pending.author.map(Value.string) ?? .null, .integer(Int64(getpid()))]
        let seq: Int64
        if writer.remote != nil {
            seq = try writer.scalarInt(PostgreSQLHistorySchema.openTransactionSQL, values) ?? 0
        } else {
            try writer.run(HistorySchema.openTransactionSQL, values)
            seq = writer.lastInsertRowID
        }
        pendingHistory?.sequence = seq
        return seq
    }

    func beginImmediateWithRetry() throws(StoreError) {
        var attempt = 0
        while true {
            var failure: StoreError
            do {
                try writer.executeCached("BEGIN IMMEDIATE")
                return
            } catch {
                failure = error
            }
            guard failure.isBusy else { throw failure }
            if attempt >= options.writeRetries {
                throw .busy(path: path, detail: "could not take the write lock after \(attempt + 1) attempts")
            }
            attempt += 1
            usleep(useconds_t(min(200_000, 5_000 << attempt)) + useconds_t.random(in: 0..<5_000))
        }
    }

    /// A new connection for reading (each context owns one).
    public func makeReaderConnection() throws(StoreError) -> Connection {
        if let engine = writer.remote as? PGEngine { return Connection(remote: PGEngine(connection: try PGConnection(url: engine.connection.url))) }
        let c = try Connection(path: access.connectionPath(path),
                               options: access.openOptions(options, journalModeWAL: !options.inMemory && !isForeign))
        c.dateEpochSince1970 = layout.dateEpochSince1970
        try layout.prepare(c)
        return c
    }

    // MARK: - Object IDs

    public func objectID(entity: String, primaryKey: Int64) -> ObjectID {
        if let scope = idScopes[entity] { return ObjectID(scope: scope, key: .permanent(primaryKey)) }
        return ObjectID(entityName: entity, rootName: entity, key: .permanent(primaryKey), storeIdentifier: identifier)
    }

    /// The scope of permanent IDs of an entity in this store.
    func idScope(for entity: Entity) -> ObjectIDScope {
        idScopes[entity.name] ?? ObjectIDScope.intern(entityName: entity.name, rootName: entity.rootName, storeIdentifier: identifier)
    }

    /// Resolves an object ID's URI string against this store's model.
    public func objectID(uri: String) -> ObjectID? {
        guard let (store, entity, key) = ObjectID.parse(uri), let e = model.entity(named: entity) else { return nil }
        if case .permanent = key, store != identifier { return nil }
        if case .permanent = key, let scope = idScopes[entity] { return ObjectID(scope: scope, key: key) }
        return ObjectID(entityName: entity, rootName: e.rootName, key: key, storeIdentifier: identifier)
    }
}
