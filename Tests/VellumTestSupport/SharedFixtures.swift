import Foundation

/// The team's Core Data fixtures (`shared/fixtures/coredata`): from
/// `VELLUM_FIXTURES_DIR`, else the first `shared/fixtures/coredata` beside the
/// package or one of its parent folders, else `/work/shared/fixtures/coredata`.
public enum SharedFixtures {
    public static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["VELLUM_FIXTURES_DIR"] { return URL(fileURLWithPath: dir) }
        var folder = PackageRoot.url
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/fixtures/coredata")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/work/shared/fixtures/coredata")
    }()
}

/// The package's root folder, from this file's path (Tests/VellumTestSupport/…).
public enum PackageRoot {
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}
