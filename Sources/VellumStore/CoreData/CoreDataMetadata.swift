import Foundation

/// `Z_METADATA` of a Core Data store: its UUID and the metadata plist.
public struct CoreDataMetadata: Sendable {
    public let uuid: String
    /// The whole plist (store type, hashes, framework version, app keys).
    public let plist: [String: PlistValue]

    init(plist: PlistValue, uuid: String) throws(StoreError) {
        guard let d = plist.dictionary else {
            throw .malformedCoreData(what: "Z_METADATA.Z_PLIST", offset: nil, reason: "the plist is not a dictionary")
        }
        self.plist = d.byKey
        self.uuid = uuid
    }

    /// `NSStoreModelVersionHashes`: entity name → 32-byte SHA-256.
    public var versionHashes: [String: Data] {
        (plist["NSStoreModelVersionHashes"]?.dictionary?.byKey ?? [:]).compactMapValues(\.data)
    }

    /// `NSPersistenceFrameworkVersion`: the Core Data build that last wrote the store.
    public var frameworkVersion: Int64? { plist["NSPersistenceFrameworkVersion"]?.integer }

    public var storeType: String? { plist["NSStoreType"]?.string }

    public var versionIdentifiers: [String] { (plist["NSStoreModelVersionIdentifiers"]?.elements ?? []).compactMap(\.string) }
}
