import Foundation
import Testing

/// The browser on a copy of Chinook (no Vellum history: changes are known only
/// coarsely) while the sqlite3 shell writes: the changed row updates in place and
/// flashes; its neighbours do not.
@Suite("E2E live updates on another program's database", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EForeignLiveTests {
    @Test func aShellUpdateShowsAndFlashesOnlyThatRow() throws {
        let dir = TempDir()
        let (copy, original) = try SQLiteFixtures.copy("chinook.sqlite", into: dir)
        let t = Tmux.browser("'\(VellumBinary.url.path)' '\(copy.path)'", entity: "Artist")
        defer { t.kill() }
        // Sorted by Name: Accept and Aerosmith are on the first screen, below the cursor.
        #expect(t.wait(for: "Aerosmith"), "\(t.screen)")
        /// Whether the table row showing `name` is drawn in a style of its own (the flash):
        /// an escape sequence between the table's border and the name, other than the
        /// default-colour reset every row starts with.
        func styled(_ name: String) -> Bool? {
            let screen = t.tmux(["capture-pane", "-e", "-p", "-t", t.name]).out
            guard let line = screen.split(separator: "\n").first(where: { $0.contains(name) }),
                  let nameAt = line.range(of: name), let border = line[..<nameAt.lowerBound].range(of: "│", options: .backwards) else { return nil }
            return line[border.upperBound..<nameAt.lowerBound].replacingOccurrences(of: "\u{1b}[39m", with: "").contains("\u{1b}[")
        }
        #expect(styled("Accept") == false, "unchanged rows are drawn plainly")
        #expect(try sqliteShell(copy.path, "UPDATE Artist SET Name = 'Aerosmith (live)' WHERE Name = 'Aerosmith'") == 0)
        #expect(t.wait(for: "Aerosmith (live)"), "\(t.screen)")
        // It flashes in the theme's highlight role for about a second; the row above, unchanged, does not.
        #expect(styled("Aerosmith (live)") == true, "the changed row does not flash")
        #expect(styled("Accept") == false, "an unchanged row flashes")
        #expect(t.wait(10) { _ in styled("Aerosmith (live)") == false }, "the flash never ended")
        t.keys("q")
        #expect(t.wait(10) { _ in !t.alive }, "\(t.screen)")
        #expect(SQLiteFixtures.sidecars(of: copy.path).isEmpty)
        #expect(SQLiteFixtures.originalUnchanged("chinook.sqlite", original))
    }
}
