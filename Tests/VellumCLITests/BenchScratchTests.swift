import Foundation
import Testing
import VellumTestSupport

/// `vellum-bench` writes its stores in a scratch directory under the temp directory;
/// a run must not leave them behind (a full run's are over 600 MB).
@Suite("vellum-bench scratch")
struct BenchScratchTests {
    @Test func benchLeavesNoScratchDirectoryBehind() throws {
        let bench = VellumBinary.url.deletingLastPathComponent().appendingPathComponent("vellum-bench")
        try #require(FileManager.default.isExecutableFile(atPath: bench.path), "no vellum-bench beside \(VellumBinary.url.path)")
        let temp = FileManager.default.temporaryDirectory.appendingPathComponent("bench-scratch-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: temp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: temp) }

        // One quick benchmark (a Core Data model opened from a fixture copy), and a run that fails.
        for arguments in [["coredata-open-model-large"], ["no-such-benchmark"]] {
            let process = Process()
            process.executableURL = bench
            process.arguments = arguments
            var environment = ProcessInfo.processInfo.environment
            environment["TMPDIR"] = temp.path
            environment["VELLUM_FIXTURES_DIR"] = SharedFixtures.directory.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == (arguments == ["no-such-benchmark"] ? 1 : 0), "vellum-bench \(arguments)")
            let left = try FileManager.default.contentsOfDirectory(atPath: temp.path)
            #expect(left.isEmpty, "vellum-bench \(arguments) left \(left) in \(temp.path)")
        }
    }
}
