import Foundation
import VellumStore

/// Loading a model from whatever path the user gives: a JSON model, an Xcode
/// model (`.xcdatamodeld`/`.xcdatamodel` folder or bare `contents` XML), or a
/// Vellum store file (whose model is read from its metadata, read-only).
enum ModelSource {
    /// True if the file at `path` starts with the SQLite header.
    static func isSQLiteFile(atPath path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = (try? handle.read(upToCount: ModelLoader.sqliteHeader.count)) ?? Data()
        return ModelLoader.isStoreFile(header)
    }

    /// Tables of another program's database at `path` that its inferred model leaves out, with the reason.
    static func skippedTables(path: String) -> [(table: String, reason: String)] {
        guard isSQLiteFile(atPath: path),
              let store = try? PersistentStore.openAny(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false, readOnly: true)),
              let layout = store.layout as? ForeignLayout else { return [] }
        return ForeignModelInference.skippedTables(layout.schema)
    }

    /// The model at `path`; throws `CLIError.runtime` with a readable message.
    /// `enforcesForeignKeys` false (`--no-foreign-keys`): another program's database's
    /// delete rules are inferred as SQLite applies them with foreign keys off (none).
    static func loadModel(path: String, enforcesForeignKeys: Bool = true) throws -> ManagedObjectModel {
        if PersistentStore.isServerLocation(path) { return try serverStoreModel(path) }
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.runtime("\(path): no such file or directory")
        }
        let url = URL(fileURLWithPath: path)
        do {
            if !isDirectory.boolValue && isSQLiteFile(atPath: path) {
                var options = StoreOptions(createIfMissing: false, readOnly: true)
                options.enforcesForeignKeys = enforcesForeignKeys
                return try PersistentStore.openAny(url: url, model: nil, options: options).model
            }
            return try ModelLoader.load(from: url)
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
    }

    /// The model stored in a server store (`postgresql://…`), opened read-only: nothing is changed.
    private static func serverStoreModel(_ location: String) throws -> ManagedObjectModel {
        do {
            return try PersistentStore.open(location: location, model: nil, options: StoreOptions(createIfMissing: false, readOnly: true)).model
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
    }
}
