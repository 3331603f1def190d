import Foundation

extension PersistentStore {
    /// Opens any existing SQLite file: a Vellum store as such; a Core Data store
    /// through `CoreDataLayout` (`init(coreDataURL:…)`); another program's database
    /// (`notAStore`) through `ForeignLayout`, with `model` (if given) as the mapping
    /// onto its tables. Files that are not databases are refused as by `init(url:model:options:)`.
    public static func openAny(url: URL, model: ManagedObjectModel?, options: StoreOptions) throws(StoreError) -> PersistentStore {
        do throws(StoreError) {
            return try PersistentStore(url: url, model: model, options: options)
        } catch .coreDataStore {
            return try PersistentStore(coreDataURL: url, model: model, options: options)
        } catch .notAStore {
            if CoreDataStoreFile.isCoreDataStore(path: url.path) { return try PersistentStore(coreDataURL: url, model: model, options: options) }
            return try PersistentStore(foreignURL: url, model: model, options: options)
        }
    }
}
