import Foundation

/// All versions of a versioned Xcode model (`.xcdatamodeld`), for migrations that step
/// through them (renaming identifiers name the previous version's element).
public enum XcodeModelVersions {
    /// The versions, oldest first (Xcode names them `Model`, `Model 2`, … : numeric order).
    public static func read(url: URL) throws(StoreError) -> [(name: String, model: ManagedObjectModel)] {
        do { return try versions(url: url) } catch { throw .model(error) }
    }

    static func versions(url: URL) throws(ModelError) -> [(name: String, model: ManagedObjectModel)] {
        guard let bundle = try XcodeModelReader.versionedBundle(url) else {
            throw .parse(file: url.path, detail: "not a versioned model folder (.xcdatamodeld)")
        }
        return try bundle.versions.map { name throws(ModelError) in
            (String(name.dropLast(".xcdatamodel".count)), try XcodeModelReader.model(url: url.appendingPathComponent(name)))
        }
    }
}
