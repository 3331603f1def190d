import VellumTerminal

/// Column widths from header and visible content, within limits, and which
/// columns fit on screen so the cursor column is always visible.
public enum ColumnSizing {
    public static let minWidth = 4
    public static let maxWidth = 28

    public static func widths(headers: [String], cells: [[String]]) -> [Int] {
        headers.enumerated().map { index, header in
            var w = DisplayWidth.of(header) + 2   // room for the sort marker
            for row in cells where index < row.count { w = max(w, DisplayWidth.of(row[index])) }
            return min(maxWidth, max(minWidth, w))
        }
    }

    /// First visible column such that `cursor` fits in `available` cells (1-cell gaps).
    public static func firstVisible(widths: [Int], cursor: Int, available: Int) -> Int {
        guard widths.indices.contains(cursor) else { return 0 }
        var start = 0
        while start < cursor, widths[start...cursor].reduce(0, +) + (cursor - start) > available { start += 1 }
        return start
    }
}
