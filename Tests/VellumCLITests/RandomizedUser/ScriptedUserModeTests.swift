import Foundation
import Testing

/// The scripted user reads the browser's real screens (the stored snapshots) as the
/// modes they are: a misread mode sends keys meant for another screen (a `t` for
/// "take theirs" typed into the editor), and the randomized test then cannot quit.
@Suite struct ScriptedUserModeTests {
    static let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Snapshots")

    static func screen(_ name: String) throws -> String {
        try String(contentsOf: snapshots.appendingPathComponent(name + ".txt"), encoding: .utf8)
    }

    @Test(arguments: ["80x24", "120x40"])
    func editorWithANoticeIsReadAsTheEditorNotTheConflictPrompt(size: String) throws {
        #expect(ScriptedUser.mode(of: try Self.screen("edit-changed-underneath-\(size)")) == .edit)
    }

    @Test(arguments: ["80x24", "120x40"])
    func everySnapshottedModeIsReadAsItself(size: String) throws {
        let expected: [(String, ScriptedUser.Mode)] = [
            ("browse", .browse), ("edit", .edit), ("conflict", .conflict), ("picker", .picker),
            ("confirm-delete", .confirmDelete), ("filter", .filter),
        ]
        for (name, mode) in expected {
            #expect(ScriptedUser.mode(of: try Self.screen("\(name)-\(size)")) == mode, "\(name)-\(size)")
        }
    }
}
