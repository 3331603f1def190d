import Foundation

extension PersistentStore {
    /// Opens a store written by Core Data through `CoreDataLayout`. The model is `model`
    /// if given (refused unless its version hashes equal the store's), else recovered from
    /// the file (`CoreDataStoreFile.recoverModel`: the model cache, or one inferred from the
    /// schema). Opening and reading change nothing: no schema, metadata or journal mode.
    /// Saves write as Core Data does (`docs/core-data-stores.md`); a store Vellum cannot
    /// write so is opened read-only and `writeRefusal` says why.
    public convenience init(coreDataURL url: URL, model: ManagedObjectModel? = nil, options: StoreOptions = StoreOptions()) throws(StoreError) {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        try StoreFileCheck.check(path)
        if !options.readOnly && !StoreFileAccess.isWritable(path) { throw .readOnly(path: path) }
        let recovered = try CoreDataStoreFile(path: path).recoverModel()
        var differing = recovered.differingEntities
        if let model {
            // A model given (`--model`) must be the one the store was written with. What a
            // `ManagedObjectModel` does not keep (hash modifiers, external storage,
            // derivations) is taken from the store's own compiled model, when it has one.
            let given = CoreDataModel(model: model, details: recovered.coreData.details)
            differing = CoreDataVersionHash.differingEntities(given, stored: recovered.metadata.versionHashes)
            guard differing.isEmpty else { throw .coreDataModelMismatch(path: path, model: "the model given", entities: differing) }
        }
        let resolved = try Self.storedTypes(model ?? recovered.model)
        // Judged on a read-only look first, so a store that will not be written is never opened for writing.
        let reading = StoreFileAccess.choose(for: path, options: Self.readingOnly(options))
        let probe = try Connection(path: reading.connectionPath(path),
                                   options: reading.openOptions(options, journalModeWAL: false))
        let layout = try CoreDataLayout(model: resolved, schema: ForeignSchema.read(probe))
        let refusal = try CoreDataWriteCheck.refusal(differingEntities: differing, layout: layout, connection: probe)
        let functions = try CoreDataWriteCheck.triggerFunctions(probe)
        let opened = refusal == nil ? options : Self.readingOnly(options)
        let access = StoreFileAccess.choose(for: path, options: opened)
        let writer = try Connection(path: access.connectionPath(path),
                                    options: access.openOptions(options, journalModeWAL: false))
        writer.registerNoOpFunctions(functions)
        try layout.prepare(writer)
        self.init(path: path, options: opened, access: access, writer: writer, model: resolved, layout: layout,
                  identifier: recovered.metadata.uuid, writeRefusal: options.readOnly ? nil : refusal)
    }

    private static func readingOnly(_ options: StoreOptions) -> StoreOptions {
        var o = options
        o.readOnly = true
        return o
    }

    /// `model` with transformable attributes read as the binary Core Data stores (an archive,
    /// not Vellum's JSON text).
    static func storedTypes(_ model: ManagedObjectModel) throws(StoreError) -> ManagedObjectModel {
        guard model.entityDescriptions.contains(where: { $0.attributes.contains { $0.type == .transformable } }) else { return model }
        let entities = model.entityDescriptions.map { e in
            var e = e
            e.attributes = e.attributes.map { a in
                guard a.type == .transformable else { return a }
                var a = a
                a.type = .binary
                a.defaultValue = nil
                return a
            }
            return e
        }
        return try ManagedObjectModel(entities: entities, versionIdentifier: model.versionIdentifier)
    }
}
