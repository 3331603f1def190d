import Foundation

/// A temporary directory, removed when the value is released.
public final class TempDir {
    public let url: URL

    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-test-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// The URL of `name` inside the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The path of `name` inside the directory.
    public func path(_ name: String) -> String { file(name).path }
}
