/// An in-memory screen: the cells a frame puts there, laid out as the
/// terminal would (wide characters take two cells, control characters show
/// as their markers), read back as text for snapshot tests.
@MainActor
public final class CellBuffer: CellCanvas {
    public let size: TerminalSize
    /// Each cell's text; "" for the right half of a wide character.
    private var cells: [[String]]
    private var styles: [[Style]]
    public private(set) var cursor: (row: Int, col: Int)?

    public init(size: TerminalSize) {
        self.size = size
        cells = Array(repeating: Array(repeating: " ", count: max(0, size.columns)), count: max(0, size.rows))
        styles = Array(repeating: Array(repeating: .plain, count: max(0, size.columns)), count: max(0, size.rows))
    }

    @discardableResult
    public func put(row: Int, col: Int, text: String, style: Style, maxWidth: Int?) -> Int {
        guard row >= 0, row < size.rows, col >= 0, col < size.columns else { return 0 }
        let limit = min(maxWidth ?? Int.max, size.columns - col)
        guard limit > 0 else { return 0 }
        var x = col
        for character in DisplayWidth.clip(text, toWidth: limit) {
            for cell in TerminalCells.cells(of: character) where x + cell.width <= col + limit {
                cells[row][x] = String(String.UnicodeScalarView(cell.scalars))
                styles[row][x] = style
                for extra in 1..<max(1, cell.width) { cells[row][x + extra] = ""; styles[row][x + extra] = style }
                x += cell.width
            }
        }
        return x - col
    }

    public func fill(row: Int, col: Int, width: Int, height: Int, style: Style, character: Character) {
        let w = max(1, DisplayWidth.of(character))
        guard width > 0 else { return }
        let line = String(repeating: String(character), count: width / w)
        for r in row..<(row + max(0, height)) { put(row: r, col: col, text: line, style: style, maxWidth: width) }
    }

    public func clear(style: Style) {
        fill(row: 0, col: 0, width: size.columns, height: size.rows, style: style, character: " ")
    }

    public func setCursor(row: Int?, col: Int?) {
        if let row, let col { cursor = (row, col) } else { cursor = nil }
    }

    public func refresh() {}

    /// The screen's text, one line per row, trailing blanks removed.
    public var lines: [String] {
        cells.map { row in
            var line = row.joined()
            while line.last == " " { line.removeLast() }
            return line
        }
    }

    /// The style of one cell (tests check highlights without colours in the text).
    public func style(row: Int, col: Int) -> Style { styles[row][col] }
}
