import Foundation

/// Other programs' SQLite databases (`shared/fixtures/sqlite`, see its
/// SOURCES.md), used only through copies: `copy` records the original's bytes so
/// a test can check it was not changed, and `sidecars` lists the files SQLite
/// may leave beside a database.
public enum SQLiteFixtures {
    public static var directory: URL {
        SharedFixtures.directory.deletingLastPathComponent().appendingPathComponent("sqlite")
    }

    /// The fixture's path (never to be opened directly).
    public static func original(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A copy of the fixture `name` in `dir`, and the original's bytes as they were.
    public static func copy(_ name: String, into dir: TempDir, as copyName: String? = nil) throws -> (copy: URL, originalBytes: Data) {
        let source = directory.appendingPathComponent(name)
        let bytes = try Data(contentsOf: source)
        let destination = dir.file(copyName ?? name)
        try bytes.write(to: destination)
        return (destination, bytes)
    }

    /// True when the original of `name` still holds exactly `bytes` and has no sidecar files.
    public static func originalUnchanged(_ name: String, _ bytes: Data) -> Bool {
        (try? Data(contentsOf: directory.appendingPathComponent(name))) == bytes && sidecars(of: original(name)).isEmpty
    }

    /// The `-wal`, `-shm` and `-journal` files beside `path`.
    public static func sidecars(of path: String) -> [String] {
        ["-wal", "-shm", "-journal"].map { path + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }
}
