import Foundation

extension PersistentStore {
    /// What opening a store in a PostgreSQL schema found.
    struct PostgreSQLOpening {
        let writer: Connection
        let layout: PostgreSQLLayout
        let identifier: String
        let hasHistory: Bool
    }

    /// Connects, creates the store when the schema holds none (with `createIfMissing`
    /// and a model), and checks the stored model's hash as for a file: a different
    /// model is migrated by `StoreOptions.migrateServerOnMismatch` (a container's migration
    /// policy), else it is `modelMismatch`, nothing changed.
    static func openPostgreSQL(url: PostgreSQLURL, model: ManagedObjectModel?, options: StoreOptions) throws(StoreError) -> PostgreSQLOpening {
        guard url.schema != nil else {
            throw .invalidOperation("\(url): name the schema that holds the store (?schema=name)")
        }
        let db = try PGConnection(url: url)
        // The history triggers skip this connection's writes: saves record their own history.
        try db.addSessionSetting("SET \(PostgreSQLHistorySchema.writerSetting) TO 'on'")
        let engine = PGEngine(connection: db)
        let writer = Connection(remote: engine)
        let holdsStore = try engine.tableExists(metadataTable)
        if options.createOnly || !holdsStore {
            guard options.createIfMissing, !options.readOnly else {
                throw .invalidOperation("\(url): the schema holds no Vellum store (vellum create URL --model MODEL creates one)")
            }
            guard let model else { throw .invalidOperation("\(url): no store in the schema and no model to create one with") }
            let layout = PostgreSQLLayout(base: options.layout(model))
            let uuid = UUID().uuidString
            do throws(StoreError) {
                try PostgreSQLSchema.createStore(on: db, layout: layout, uuid: uuid, history: options.recordsHistory)
                return PostgreSQLOpening(writer: writer, layout: layout, identifier: uuid, hasHistory: options.recordsHistory)
            } catch .fileExists where !options.createOnly {
                // Another process created the store between the look and the creation: open that one.
            }
        }
        let meta = try PostgreSQLSchema.metadata(db)
        let stored: ManagedObjectModel?
        do { stored = try meta["model"].map { try ManagedObjectModel.fromJSON(Data($0.utf8)) } } catch {
            throw .invalidOperation("\(url): the model stored in the schema cannot be read: \(ErrorText.describe(error))")
        }
        if let model, let hash = meta["modelHash"], hash != model.versionHash {
            // The container's migration policy (`StoreOptions.migrateServerOnMismatch`): one server transaction.
            guard let migrate = options.migrateServerOnMismatch, let stored, !options.readOnly else {
                throw .modelMismatch(path: url.description, storeHash: hash, modelHash: model.versionHash)
            }
            try migrate(url, stored, model)
        }
        guard let resolved = model ?? stored else {
            throw .invalidOperation("\(url): no model given and none stored in the schema")
        }
        let layout = PostgreSQLLayout(base: options.layout(resolved))
        if !options.readOnly {
            try PostgreSQLSchema.upgradeFunctionsIfOlder(on: db, recorded: meta[PostgreSQLFunctions.versionKey])
            try PostgreSQLChangeNotification.installIfMissing(on: db, layout: layout)
            // A store created before PostgreSQL stores had history gets it now.
            if options.recordsHistory { try PostgreSQLHistorySchema.installIfMissing(on: db, layout: layout) }
        }
        let hasHistory = try engine.tableExists(HistorySchema.changes)
        return PostgreSQLOpening(writer: writer, layout: layout, identifier: meta["uuid"] ?? "", hasHistory: hasHistory)
    }
}
