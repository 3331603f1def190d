import Foundation

/// Where a Core Data store's model came from.
public enum CoreDataModelSource: Sendable, Equatable, CustomStringConvertible {
    /// Decoded from the store's `Z_MODELCACHE`.
    case modelCache
    /// An Xcode model the user named, whose version hashes equal the store's.
    case xcodeModel(path: String)
    /// Inferred from the `Z_` schema; `notes` say per entity what is guessed or confirmed.
    case inferred(notes: [String])

    public var description: String {
        switch self {
        case .modelCache: return "the store's model cache (Z_MODELCACHE)"
        case .xcodeModel(let path): return "the Xcode model \(path) (its version hashes equal the store's)"
        case .inferred: return "inferred from the store's schema (no model cache)"
        }
    }
}

/// The model of a Core Data store, recovered from the file (or checked against it).
public struct RecoveredCoreDataModel: Sendable {
    public let coreData: CoreDataModel
    public let source: CoreDataModelSource
    public let metadata: CoreDataMetadata
    /// Entities whose computed version hash differs from the stored one (empty: all match).
    public let differingEntities: [String]

    public var model: ManagedObjectModel { coreData.model }
}

extension CoreDataStoreFile {
    /// The store's model, in order of preference: the Xcode model given (refused unless its
    /// version hashes equal the store's), the model cache, or one inferred from the schema.
    public func recoverModel(xcodeModel: URL? = nil) throws(StoreError) -> RecoveredCoreDataModel {
        let metadata = try metadata()
        let stored = metadata.versionHashes
        if let xcodeModel {
            let coreData = try XcodeModelDetailsReader.coreDataModel(url: xcodeModel)
            let differing = CoreDataVersionHash.differingEntities(coreData, stored: stored)
            guard differing.isEmpty else { throw .coreDataModelMismatch(path: path, model: xcodeModel.path, entities: differing) }
            return RecoveredCoreDataModel(coreData: coreData, source: .xcodeModel(path: xcodeModel.path), metadata: metadata, differingEntities: [])
        }
        if let archive = try modelCacheArchive() {
            let coreData = try ModelCacheDecoder.decode(KeyedArchive(data: archive, what: "\(path): Z_MODELCACHE"))
            return RecoveredCoreDataModel(coreData: coreData, source: .modelCache, metadata: metadata,
                                          differingEntities: CoreDataVersionHash.differingEntities(coreData, stored: stored))
        }
        let (coreData, notes) = try CoreDataSchemaInference.infer(self, storedHashes: stored)
        return RecoveredCoreDataModel(coreData: coreData, source: .inferred(notes: notes), metadata: metadata,
                                      differingEntities: CoreDataVersionHash.differingEntities(coreData, stored: stored))
    }
}
