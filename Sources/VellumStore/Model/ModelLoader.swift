import Foundation

/// The front door for file-based models: picks the format from the path and contents.
///
/// - a directory ending in `.xcdatamodeld` or `.xcdatamodel` (or any folder holding a
///   `contents` file or `.xcdatamodel` versions) → `XcodeModelReader`;
/// - a file ending in `.json` → the JSON model format;
/// - any other file: the first non-blank byte decides: `{` → JSON, `<` → Xcode XML.
///
/// A SQLite store file is refused with `ModelError.parse(detail: "is a store file; …")`:
/// reading the model saved in a store is the store layer's job (`PersistentStore`).
public enum ModelLoader {
    /// The first 16 bytes of every SQLite database file.
    public static let sqliteHeader = Data("SQLite format 3\0".utf8)

    /// The `ModelError.parse` detail used when `load(from:)` is given a store file.
    public static let storeFileDetail = "is a store file; open it with PersistentStore"

    /// A model that cannot be read or is refused is `StoreError.model`.
    public static func load(from url: URL) throws(StoreError) -> ManagedObjectModel {
        do { return try model(from: url) } catch { throw .model(error) }
    }

    static func model(from url: URL) throws(ModelError) -> ManagedObjectModel {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .parse(file: url.path, detail: "no such file or directory")
        }
        if isDirectory.boolValue { return try XcodeModelReader.model(url: url) }

        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .parse(file: url.path, detail: "cannot read file: \(ErrorText.reason(error))")
        }
        if url.pathExtension.lowercased() == "json" {
            return try ManagedObjectModel(validatingJSON: data, file: url.path)
        }
        if isStoreFile(data) {
            // Hook for the store layer: a store file carries its own model.
            throw .parse(file: url.path, detail: storeFileDetail)
        }
        switch firstSignificantByte(data) {
        case UInt8(ascii: "{"): return try ManagedObjectModel(validatingJSON: data, file: url.path)
        case UInt8(ascii: "<"): return try XcodeModelReader.model(data: data, file: url.path)
        default:
            throw .parse(file: url.path, detail: "not a model file (expected JSON, Xcode model XML, or an .xcdatamodel(d) folder)")
        }
    }

    /// True if `data` starts with the SQLite file header.
    public static func isStoreFile(_ data: Data) -> Bool {
        data.count >= sqliteHeader.count && data.prefix(sqliteHeader.count) == sqliteHeader
    }

    /// The first byte that is not whitespace or a UTF-8 byte order mark.
    static func firstSignificantByte(_ data: Data) -> UInt8? {
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }
    }
}
