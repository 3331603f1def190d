import Foundation
@testable import VellumApp
import VellumTerminal

extension SnapshotTests {
    /// A browser session on the store at `url`, showing `entity`.
    func session(_ url: URL, entity: String, size: TerminalSize = TerminalSize(rows: 40, columns: 120)) async throws -> BrowserSession {
        let s = BrowserSession(container: try SessionTests.open(url))
        s.setLayout(Layout(size: size))
        try await type(":goto \(entity)\r", into: s)
        return s
    }
}

/// What `sqlite3` prints for `statement` on the file at `url`, trimmed.
func sqliteText(_ url: URL, _ statement: String) throws -> String {
    try runSQLite(url.path, statement).out.trimmingCharacters(in: .whitespacesAndNewlines)
}
