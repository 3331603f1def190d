import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: find matches case-insensitively or by regular expression, jumps to and
/// highlights the matching cell — in the real binary at 80×24 and 120×40.
@Suite("E2E find", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EFindTests {
    static let sizes = [(80, 24), (120, 40)]

    /// The styled table line (escape sequences kept) that shows `text` in a row (before its SKU,
    /// not in the detail pane).
    func styledRow(_ t: Tmux, containing text: String) -> String {
        t.tmux(["capture-pane", "-e", "-p", "-t", t.name]).out.split(separator: "\n").map(String.init).first { line in
            guard let at = line.range(of: text), let sku = line.range(of: "SKU-", range: at.upperBound..<line.endIndex) else { return false }
            return sku.lowerBound > at.upperBound
        } ?? ""
    }

    /// Whether a style change (an SGR sequence) ends right before `text` in `line`.
    func styleStarts(at text: String, in line: String) -> Bool {
        line.contains(try! Regex("\u{1b}\\[[0-9;]*m" + NSRegularExpression.escapedPattern(for: text)))
    }

    @Test(arguments: sizes)
    func findJumpsToTheCellMarksTheMatchAndTakesARegularExpression(width: Int, height: Int) throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: width, height: height)
        defer { t.kill() }
        #expect(t.wait(for: "row 1/"), "\(t.screen)")
        t.keys("l", "l", "f"); t.type("BLANKET"); t.keys("Enter")
        #expect(t.wait(for: "BLANKET: match 1 of"), "\(t.screen)")
        // The matched word, and only it, is drawn in its own style (the highlight role).
        let line = styledRow(t, containing: "Blanket")
        #expect(styleStarts(at: "Blanket\u{1b}[", in: line) && !styleStarts(at: "Wool", in: line), "\(line.debugDescription)")
        // A regular expression that cannot run keeps the line open with the reason; Esc closes it.
        t.keys("f", "C-r"); t.type("(wool")
        #expect(t.wait(for: "find regex: (wool"), "\(t.screen)")
        t.keys("Enter")
        #expect(t.wait(for: "missing ')'"), "\(t.screen)")
        t.keys("Escape")
        #expect(t.wait { !$0.contains("find regex:") }, "\(t.screen)")
        // One that can: the cursor lands on a name it matches.
        t.keys("f", "C-u"); t.type("^compact .*mug$"); t.keys("Enter")
        #expect(t.wait(for: "mug$: match 1 of"), "\(t.screen)")
        let row = styledRow(t, containing: "Compact Ceramic Mug")
        #expect(styleStarts(at: "Compact Ceramic Mug\u{1b}[", in: row), "a regular expression marks the whole value: \(row.debugDescription)")
    }
}
