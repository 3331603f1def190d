import Foundation
import VellumTerminal

/// The `:messages` overlay as a pure function of the terminal size and the
/// messages, so the reducer (scroll keys) and the renderer agree: one entry per
/// message, oldest first, its time (the loop's clock when it showed) and `error`
/// before the text, which wraps (never cut) so a message too long for the status
/// line can be read whole. It opens at the end, the newest message.
public struct MessagesOverlay: Sendable, Equatable {
    public let lines: [String]
    /// A title row, the text rows, the footer row, inside a frame.
    public let box: Rect
    public let visibleRows: Int
    /// What comes before the text: `HH:MM:SS error `.
    static let indent = 16

    public init(size: TerminalSize, messages: [StatusEntry]) {
        let width = max(20, size.columns < 100 ? size.columns : min(size.columns - 4, 110))
        let textWidth = max(1, width - 4 - Self.indent)
        var lines: [String] = []
        for m in messages {
            let head = (m.time.map(Self.clock) ?? "        ") + (m.isError ? " error  " : "        ")
            for (i, part) in Self.wrap(m.text, width: textWidth).enumerated() {
                lines.append((i == 0 ? head : String(repeating: " ", count: Self.indent)) + part)
            }
        }
        if lines.isEmpty { lines = ["no status messages yet"] }
        self.lines = lines
        let available = max(1, size.rows - 2 - 4)
        visibleRows = min(lines.count, available)
        let height = visibleRows + 4
        box = Rect(row: max(0, (size.rows - height) / 2), col: max(0, (size.columns - width) / 2), width: min(width, size.columns), height: height)
    }

    /// The largest scroll (lines up from the end); 0 when everything shows.
    public var maxScroll: Int { max(0, lines.count - visibleRows) }
    public var pageSize: Int { max(1, visibleRows - 1) }

    /// The lines shown `scroll` lines up from the end.
    public func visibleLines(scroll: Int) -> ArraySlice<String> {
        let end = lines.count - min(max(0, scroll), maxScroll)
        return lines[max(0, end - visibleRows)..<end]
    }

    public func title(count: Int) -> String { "Messages (the last \(count), newest last)" }

    public func footer(scroll: Int, keys: KeyMap) -> String {
        let close = keys.firstLabel(for: "cancel") ?? "Esc"
        guard maxScroll > 0 else { return "\(close) closes" }
        let end = lines.count - min(max(0, scroll), maxScroll)
        let moves = ["move-down", "move-up"].compactMap { keys.firstLabel(for: $0) }.joined(separator: "/")
        return "lines \(end - visibleRows + 1)–\(end) of \(lines.count)  \(moves) scroll  \(close) close"
    }

    /// HH:MM:SS in the local time zone, as the status bar writes times.
    static func clock(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute, .second], from: date)
        return String(format: "%02d:%02d:%02d", c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// Words to `width` cells; a word longer than a line (a path, a URL) is broken in it.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var word = word
            let sep = current.isEmpty ? "" : " "
            if DisplayWidth.of(current) + DisplayWidth.of(sep) + DisplayWidth.of(word) <= width { current += sep + word; continue }
            if !current.isEmpty { lines.append(current); current = "" }
            while DisplayWidth.of(word) > width {
                let head = DisplayWidth.truncate(word, toWidth: width, ellipsis: "")
                guard !head.isEmpty else { break }
                lines.append(head)
                word = String(word.dropFirst(head.count))
            }
            current = word
        }
        lines.append(current)
        return lines
    }
}
