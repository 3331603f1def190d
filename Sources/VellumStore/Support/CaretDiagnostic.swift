import Foundation

/// Shows where in a line of input an error is: the input on one line (control
/// characters escaped, long input cut to a window around the position) and a
/// caret under the position. Columns count terminal cells, so the caller passes
/// the width of a Character (the CLI passes the terminal's display width; the
/// default counts one cell each).
public enum CaretDiagnostic {
    /// Cells of input shown around the position when the input is longer.
    public static let windowWidth = 72

    /// Two lines: the (windowed) input, and spaces then `^` under `position` (a Character offset).
    public static func lines(input: String, position: Int, width: (Character) -> Int = { _ in 1 }) -> (text: String, caret: String) {
        let characters = Array(input)
        let at = min(max(0, position), characters.count)
        let shown = characters.map { visible($0) }
        func cells(_ s: String) -> Int { s.reduce(0) { $0 + width($1) } }
        let widths = shown.map(cells)
        // Grow a window around `at` (a third of it before the position) until it is full.
        var lower = at, upper = at, used = 0
        let before = windowWidth / 3
        while lower > 0, used + widths[lower - 1] <= before { lower -= 1; used += widths[lower] }
        while upper < characters.count, used + widths[upper] <= windowWidth { used += widths[upper]; upper += 1 }
        while lower > 0, used + widths[lower - 1] <= windowWidth { lower -= 1; used += widths[lower] }
        let head = lower > 0 ? "…" : "", tail = upper < characters.count ? "…" : ""
        let text = head + shown[lower..<upper].joined() + tail
        let column = cells(head) + widths[lower..<at].reduce(0, +)
        return (text, String(repeating: " ", count: column) + "^")
    }

    /// How a character appears on the input line: newlines, tabs and other controls escaped.
    static func visible(_ c: Character) -> String {
        switch c {
        case "\n": return "\\n"
        case "\r\n": return "\\r\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        default:
            guard let v = c.unicodeScalars.first?.value, c.unicodeScalars.count == 1, v < 0x20 || v == 0x7F else { return String(c) }
            return String(format: "\\u%04x", v)
        }
    }

    /// `text` cut to `limit` Characters with an ellipsis, controls escaped (for the "found …" part of a message).
    public static func shortened(_ text: String, limit: Int = 40) -> String {
        let escaped = text.map { visible($0) }.joined()
        return escaped.count <= limit ? escaped : String(escaped.prefix(limit - 1)) + "…"
    }
}
