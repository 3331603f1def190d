import Foundation
import Testing

/// Issue #12: lock-protected shared state in the library uses `Mutex`, whose value
/// can only be reached inside the lock, not `NSLock` beside a variable that the
/// compiler cannot check (`PGCanceller` was written that way after the audit).
@Suite struct SharedStateLockTests {
    @Test func theLibraryUsesNoNSLock() throws {
        let root = LayeringTests.storeSources
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 100, "the scan found too little under \(root.path)")
        for path in files {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("NSLock") && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                Issue.record("\(path):\(i + 1): NSLock guards shared state; use Mutex (Synchronization)")
            }
        }
    }
}
