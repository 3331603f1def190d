import Foundation
import Testing
@testable import VellumApp

/// Manual preview: VELLUM_PREVIEW_STORE=/path/demo.sqlite swift test --filter preview (inside a terminal).
@MainActor @Suite struct PreviewTests {
    @Test(.enabled(if: ProcessInfo.processInfo.environment["VELLUM_PREVIEW_STORE"] != nil))
    func preview() async throws {
        let path = ProcessInfo.processInfo.environment["VELLUM_PREVIEW_STORE"]!
        if !FileManager.default.fileExists(atPath: path) { try DemoStore.create(at: URL(fileURLWithPath: path)) }
        let writer = Task.detached { try? DemoWriter.run(storePath: path, iterations: 200) }
        _ = try await VellumBrowser.run(storePath: path, themeName: nil)
        writer.cancel()
    }
}
