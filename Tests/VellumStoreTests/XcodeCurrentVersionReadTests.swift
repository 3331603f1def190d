import Foundation
import Testing
@testable import VellumStore

/// A `.xccurrentversion` that exists but cannot be read is an error naming it;
/// before, it was skipped silently and the last version loaded instead of the
/// current one.
@Suite struct XcodeCurrentVersionReadTests {
    @Test func anUnreadableCurrentVersionFileIsAnErrorNotTheLastVersion() throws {
        let dir = TempDir()
        let bundle = dir.url.appendingPathComponent("Model.xcdatamodeld")
        for (version, entity) in [("Model", "Old"), ("Model 2", "New")] {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("""
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                    <entity name="\(entity)" representedClassName="\(entity)"><attribute name="x" optional="YES" attributeType="String"/></entity>
                </model>
                """.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        // Present but unreadable as a file (a folder: even root cannot read it as data).
        let current = bundle.appendingPathComponent(".xccurrentversion")
        try FileManager.default.createDirectory(at: current, withIntermediateDirectories: true)
        let error = try #require(throws: StoreError.self) { try ModelLoader.load(from: bundle) }
        guard case .parse(let file, let detail)? = error.modelError else { Issue.record("expected a parse error, got \(error)"); return }
        #expect(file == current.path)
        #expect(detail.hasPrefix("cannot read file"), "\(detail)")
    }
}
