import Foundation

/// All versions of a versioned Xcode model (`.xcdatamodeld`), for migrations that step
/// through them (renaming identifiers name the previous version's element).
public enum XcodeModelVersions {
    /// The versions, oldest first (Xcode names them `Model`, `Model 2`, … : numeric order).
    public static func read(url: URL) throws(StoreError) -> [(name: String, model: ManagedObjectModel)] {
        do { return try versions(url: url) } catch { throw .model(error) }
    }

    static func versions(url: URL) throws(ModelError) -> [(name: String, model: ManagedObjectModel)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".xcdatamodel") }
        } catch {
            throw .parse(file: url.path, detail: "cannot list the model versions: \(ErrorText.reason(error))")
        }
        guard !names.isEmpty else { throw .parse(file: url.path, detail: "no .xcdatamodel version in this folder") }
        return try names.sorted { $0.compare($1, options: .numeric) == .orderedAscending }.map { name throws(ModelError) in
            (String(name.dropLast(".xcdatamodel".count)), try XcodeModelReader.model(url: url.appendingPathComponent(name)))
        }
    }
}
