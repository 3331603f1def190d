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

    /// Gives columns cut at `maxWidth` the room left over on the right, so long
    /// values (URLs, titles) show in full when the table has space.
    public static func distributeSpare(_ widths: inout [Int], from first: Int, headers: [String], cells: [[String]], available: Int,
                                       fixed: Set<Int> = []) {
        guard widths.indices.contains(first) else { return }
        var spare = available - widths[first...].reduce(0, +) - (widths.count - first - 1)
        guard spare > 0 else { return }
        for index in first..<widths.count where spare > 0 && !fixed.contains(index) {
            var natural = DisplayWidth.of(headers[index]) + 2
            for row in cells where index < row.count { natural = max(natural, DisplayWidth.of(row[index])) }
            let extra = min(spare, natural - widths[index])
            if extra > 0 { widths[index] += extra; spare -= extra }
        }
    }

    /// Applies the user's resizes (`ColumnLayout.widthChanges`) to the widths the values need.
    public static func resized(_ widths: [Int], names: [String], changes: [String: Int]) -> [Int] {
        zip(widths, names).map { width, name in changes[name].map { max(1, width + $0) } ?? width }
    }
}
