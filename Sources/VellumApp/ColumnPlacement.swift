import VellumTerminal

/// Where a frame draws the table's columns: each column's width (the values' natural
/// width, the user's resize, the spare room shared out) and the columns that show, left
/// to right, with their screen column. The renderer draws from it; the mouse finds a
/// header's right edge in it (`AppState.placedColumns`).
public struct ColumnPlacement: Sendable, Equatable {
    /// One column as drawn.
    public struct Placed: Sendable, Equatable {
        /// Index into `AppState.columnNames`.
        public var column: Int
        public var name: String
        /// Screen column of its first cell.
        public var x: Int
        /// Cells it is drawn in (the table edge may cut the last one: see `shown`).
        public var width: Int
        /// The width its header and values need, before the user's resize and the spare room.
        public var naturalWidth: Int
    }

    /// Per column of `AppState.columnNames`.
    public var widths: [Int]
    /// The columns that show, left to right: the key column stays first when scrolled right.
    public var placed: [Placed]

    public init(widths: [Int] = [], placed: [Placed] = []) {
        self.widths = widths
        self.placed = placed
    }

    /// `headers`: the titles with room for their sort marks; `cells`: the shown rows' texts.
    /// O(columns × shown rows).
    static func place(_ s: AppState, in r: Rect, headers: [String], cells: [[String]]) -> ColumnPlacement {
        let changes = s.currentColumnLayout.widthChanges
        let natural = ColumnSizing.widths(headers: headers, cells: cells)
        var widths = ColumnSizing.resized(natural, names: s.columnNames, changes: changes)
        var first = ColumnSizing.firstVisible(widths: widths, cursor: s.cursorColumn, available: r.width)
        var visible = Array(first..<widths.count)
        if first > 0 {
            // Scrolled right: the key (first) column stays in view on the left.
            first = max(1, ColumnSizing.firstVisible(widths: widths, cursor: s.cursorColumn, available: r.width - widths[0] - 1))
            visible = [0] + Array(first..<widths.count)
        } else {
            ColumnSizing.distributeSpare(&widths, from: first, headers: headers, cells: cells, available: r.width,
                                         fixed: Set(s.columnNames.indices.filter { changes[s.columnNames[$0]] != nil }))
        }
        var placed: [Placed] = []
        var x = r.col
        for c in visible where x < r.col + r.width {
            placed.append(Placed(column: c, name: s.columnNames[c], x: x, width: widths[c], naturalWidth: natural[c]))
            x += widths[c] + 1
        }
        return ColumnPlacement(widths: widths, placed: placed)
    }
}

extension ColumnPlacement.Placed {
    /// The cells that show inside a table ending at `edge` (exclusive).
    func shown(before edge: Int) -> Int { min(width, edge - x) }

    /// Whether screen column `x` is this column's right edge: its last cell or the gap after it.
    func hasRightEdge(at x: Int) -> Bool { x == self.x + width - 1 || x == self.x + width }
}
