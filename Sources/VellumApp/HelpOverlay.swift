import VellumTerminal

/// Where the `?` help goes and which of its lines show, as a pure function of
/// the terminal size: the reducer (scroll keys) and the renderer must agree on
/// the page size, and tests check both without a terminal.
///
/// Wide terminals show the lines in two columns when one does not hold them;
/// otherwise one column. Either scrolls when the lines do not fit, and the
/// footer says which lines show. Descriptions wrap to the column's width
/// (never cut); below 100 columns, and with two columns, the box spans the
/// whole width, so no slivers of the table show beside it.
public struct HelpOverlay: Sendable, Equatable {
    /// Size assumed before the first draw has told the state the real one.
    public static let fallbackSize = TerminalSize(rows: 24, columns: 80)
    /// Widest one-column box on a wide screen (wider lines are hard to read).
    static let oneColumnMaxWidth = 84

    public let lines: [String]
    /// The overlay's rectangle: a blank row, the text rows, a blank row, the footer.
    public let box: Rect
    public let columns: Int
    /// Text rows per column.
    public let visibleRows: Int

    public init(size: TerminalSize, keyMap: KeyMap = .defaults) {
        let chrome = 3
        let available = max(1, size.rows - 2 - chrome)
        let narrow = size.columns < 100
        var width = narrow ? size.columns : min(size.columns - 4, Self.oneColumnMaxWidth)
        var lines = KeyBindings.helpLines(keyMap, width: Self.textWidth(boxWidth: width, columns: 1))
        columns = lines.count > available && !narrow ? 2 : 1
        if columns == 2 {
            width = size.columns
            lines = KeyBindings.helpLines(keyMap, width: Self.textWidth(boxWidth: width, columns: 2))
        }
        self.lines = lines
        width = max(1, width)
        visibleRows = min((lines.count + columns - 1) / columns, available)
        let height = visibleRows + chrome
        box = Rect(row: max(0, (size.rows - height) / 2), col: max(0, (size.columns - width) / 2), width: width, height: height)
    }

    /// Cells a text column has: the box less a 2-cell margin each side, columns a cell apart.
    static func textWidth(boxWidth: Int, columns: Int) -> Int { max(1, (boxWidth - 4) / columns - 1) }

    /// The left edge of text column `column` (relative to the box).
    public func columnOffset(_ column: Int) -> Int { 2 + column * (Self.textWidth(boxWidth: box.width, columns: columns) + 1) }

    public var columnWidth: Int { Self.textWidth(boxWidth: box.width, columns: columns) }

    /// The largest useful scroll offset (0 when everything shows).
    public var maxScroll: Int { max(0, lines.count - visibleRows * columns) }

    /// One page, less a line kept for context.
    public var pageSize: Int { max(1, visibleRows - 1) }

    public func clamped(_ scroll: Int) -> Int { min(max(0, scroll), maxScroll) }

    /// The lines of column `column` at `scroll` (the scroll applies to one column only).
    public func visibleLines(column: Int, scroll: Int) -> ArraySlice<String> {
        let start = min(lines.count, column * visibleRows + clamped(scroll))
        return lines[start..<min(lines.count, start + visibleRows)]
    }

    /// The bottom line: how to close, and where the view is when it scrolls.
    public func footer(scroll: Int) -> String {
        guard maxScroll > 0 else { return "Esc closes this help" }
        let first = clamped(scroll) + 1, last = min(lines.count, first + visibleRows * columns - 1)
        let more = [first > 1 ? "↑" : nil, last < lines.count ? "↓" : nil].compactMap { $0 }.joined()
        return "lines \(first)–\(last) of \(lines.count)  \(more) more  j/k PgDn/PgUp g/G scroll  Esc close"
    }
}
