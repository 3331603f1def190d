import Foundation
import Testing
@testable import VellumApp
import VellumTerminal

/// Stored expected screens under `Tests/Snapshots/NAME.txt` (outside the test target:
/// SwiftPM would warn about files it does not build).
/// `VELLUM_UPDATE_SNAPSHOTS=1 swift test --filter Snapshot` rewrites them
/// (review the diff before committing); otherwise a mismatch fails with the
/// lines that differ.
enum Snapshot {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Snapshots").standardizedFileURL
    static var updating: Bool { ProcessInfo.processInfo.environment["VELLUM_UPDATE_SNAPSHOTS"] == "1" }

    static func check(_ lines: [String], named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = lines.joined(separator: "\n") + "\n"
        if updating {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            do { try actual.write(to: url, atomically: true, encoding: .utf8) } catch {
                Issue.record("cannot write snapshot \(url.path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no snapshot \(url.path); run with VELLUM_UPDATE_SNAPSHOTS=1 to record it", sourceLocation: sourceLocation)
            return
        }
        guard expected != actual else { return }
        let message = "snapshot \(name) differs:\n\(diff(expected: expected, actual: actual))"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }

    /// The differing lines, numbered, expected above actual.
    static func diff(expected: String, actual: String) -> String {
        let e = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let a = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var out: [String] = []
        for i in 0..<max(e.count, a.count) {
            let x = i < e.count ? String(e[i]) : "<none>", y = i < a.count ? String(a[i]) : "<none>"
            if x != y { out += ["line \(i + 1):", "  expected: \(x)", "  actual:   \(y)"] }
        }
        return out.joined(separator: "\n")
    }
}
