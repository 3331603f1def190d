import Foundation

/// A Core Data fixture store copied into a temporary folder. Tests work on `url`, then
/// call `originalUnchanged()` to check the shared fixture is byte-for-byte what it was.
public final class CoreDataFixtureCopy {
    public let name: String
    public let original: URL
    public let url: URL
    private let originalBytes: Data
    private let dir = TempDir()

    /// Copies `stores/<name>` (with any `-wal`/`-shm` beside it).
    public init(_ name: String) throws {
        self.name = name
        original = SharedFixtures.directory.appendingPathComponent("stores").appendingPathComponent(name)
        originalBytes = try Data(contentsOf: original)
        url = dir.file(name)
        try FileManager.default.copyItem(at: original, to: url)
        for suffix in ["-wal", "-shm"] where FileManager.default.fileExists(atPath: original.path + suffix) {
            try FileManager.default.copyItem(atPath: original.path + suffix, toPath: url.path + suffix)
        }
    }

    /// The names of every fixture store (`*.sqlite`).
    public static func storeNames() throws -> [String] {
        let stores = SharedFixtures.directory.appendingPathComponent("stores")
        return try FileManager.default.contentsOfDirectory(atPath: stores.path).filter { $0.hasSuffix(".sqlite") }.sorted()
    }

    /// The Xcode model paired with a store in `models/`, when there is one.
    public static func xcodeModel(forStore name: String) -> URL? {
        let pairs = ["Moody-v1.sqlite": "moody-v1", "Moody-v2.sqlite": "moody-v2", "SampleModel-v1.sqlite": "sample-model-inheritance"]
        return pairs[name].map { SharedFixtures.directory.appendingPathComponent("models/\($0).xcdatamodel.xml") }
    }

    public func originalUnchanged() -> Bool { (try? Data(contentsOf: original)) == originalBytes }

    /// The files in the copy's folder (to check that opening created no sidecar).
    public func folderContents() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir.url.path)) ?? []).sorted()
    }

    /// The copy's bytes now.
    public func bytes() throws -> Data { try Data(contentsOf: url) }
}
