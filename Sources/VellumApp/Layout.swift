import VellumTerminal

/// A rectangle of terminal cells.
public struct Rect: Sendable, Hashable {
    public var row, col, width, height: Int
    public init(row: Int, col: Int, width: Int, height: Int) {
        self.row = row; self.col = col; self.width = width; self.height = height
    }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
}

/// Where every panel goes: a pure function of the terminal size, so it is
/// tested without a terminal and the renderer never does arithmetic twice.
public struct Layout: Sendable, Hashable {
    public static let minimumSize = TerminalSize(rows: 12, columns: 60)

    /// The whole terminal, for overlays that centre themselves on it.
    public var size: TerminalSize
    public var sidebar: Rect
    public var table: Rect
    public var detail: Rect
    public var status: Rect
    public var hints: Rect

    /// Rows of records the table shows (its height minus the header line).
    public var visibleRows: Int { max(0, table.height - 1) }

    public static func isTooSmall(_ size: TerminalSize) -> Bool {
        size.rows < minimumSize.rows || size.columns < minimumSize.columns
    }

    /// How far `{`/`}` may move the detail pane's edge, in steps, either way.
    public static let detailStepRange = -8...8

    /// Wide terminals put the detail pane on the right (a third of the width beside the
    /// sidebar, `detailSteps` × 4 columns more or less); narrow ones below the table
    /// (a third of the height, a row more or less a step). The table keeps room for
    /// its key column and the pane for a field either way.
    public init(size: TerminalSize, detailSteps: Int = 0) {
        self.size = size
        let rows = max(0, size.rows), cols = max(0, size.columns)
        let mainHeight = max(0, rows - 2)
        let sideWidth = min(24, max(14, cols / 6))
        sidebar = Rect(row: 0, col: 0, width: sideWidth, height: mainHeight)
        let restCol = sideWidth + 1          // one column for the divider
        let restWidth = max(0, cols - restCol)
        if cols >= 100 {
            let detailWidth = min(max(16, restWidth / 3 + 4 * detailSteps), restWidth - 40)
            table = Rect(row: 0, col: restCol, width: restWidth - detailWidth - 1, height: mainHeight)
            detail = Rect(row: 0, col: cols - detailWidth, width: detailWidth, height: mainHeight)
        } else {
            let detailHeight = min(max(3, min(10, mainHeight / 3) + detailSteps), mainHeight - 6)
            table = Rect(row: 0, col: restCol, width: restWidth, height: mainHeight - detailHeight - 1)
            detail = Rect(row: mainHeight - detailHeight, col: restCol, width: restWidth, height: detailHeight)
        }
        status = Rect(row: rows - 2, col: 0, width: cols, height: 1)
        hints = Rect(row: rows - 1, col: 0, width: cols, height: 1)
    }
}
