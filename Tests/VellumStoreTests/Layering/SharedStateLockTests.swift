import Foundation
import Testing
@testable import VellumStore

/// Issue #12: lock-protected shared state in the library uses `Mutex`, whose value
/// can only be reached inside the lock, not `NSLock` beside a variable that the
/// compiler cannot check (`PGCanceller` was written that way after the audit).
/// And it reaches `Mutex` through `Locked`, whose hand-offs ThreadSanitizer sees: a bare
/// `Mutex` made CI's TSan run report `ManagedObjectModel.versionHash`'s cache as raced.
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

    /// CI (stop 34): two threads creating stores from one new model both read and wrote
    /// `versionHash`'s cache inside a bare `Mutex`; its contended path is a futex in
    /// uninstrumented code, so TSan saw no hand-off and failed the run.
    @Test func versionHashCacheRaceUnderThreadSanitizer_everyLockIsOneTSanSees() throws {
        // Every target, not only the library: the app's and the bench's threads run under TSan too.
        let root = LayeringTests.storeSources.deletingLastPathComponent()
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 200, "the scan found too little under \(root.path)")
        for path in files where !path.hasSuffix("VellumStore/Support/Locked.swift") {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where (line.contains("Mutex(") || line.contains("Mutex<")) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                Issue.record("\(path):\(i + 1): a bare Mutex hides its hand-offs from ThreadSanitizer; use Locked")
            }
        }
    }

    /// The same race, observed: many threads ask a new model for its hash at once; every
    /// one gets the same text (under `--sanitize=thread` the old cache was reported).
    @Test func aModelsVersionHashAskedFromManyThreadsAtOnceAgrees() throws {
        let model = try Fixtures.shopModel()
        let expected = try Fixtures.shopModel().versionHash
        let seen = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            let h = model.versionHash
            seen.withLock { $0.append(h) }
        }
        let all = seen.withLock { $0 }
        #expect(all.count == 8 && Set(all) == [expected])
    }
}
