/// Where a frame is drawn: the terminal (`Screen`) or memory (`CellBuffer`,
/// for snapshot tests). Drawing code takes a canvas, so what a test sees is
/// what the terminal gets.
@MainActor
public protocol CellCanvas: AnyObject {
    var size: TerminalSize { get }
    /// Draws `text` clipped to `maxWidth` cells and the right edge; returns the cells drawn.
    @discardableResult
    func put(row: Int, col: Int, text: String, style: Style, maxWidth: Int?) -> Int
    func fill(row: Int, col: Int, width: Int, height: Int, style: Style, character: Character)
    func clear(style: Style)
    /// Shows the terminal cursor at (row, col), or hides it with nil.
    func setCursor(row: Int?, col: Int?)
    func refresh()
}

extension CellCanvas {
    @discardableResult
    public func put(row: Int, col: Int, text: String, style: Style = .plain) -> Int {
        put(row: row, col: col, text: text, style: style, maxWidth: nil)
    }

    public func fill(row: Int, col: Int, width: Int, height: Int = 1, style: Style = .plain) {
        fill(row: row, col: col, width: width, height: height, style: style, character: " ")
    }
}

extension Screen: CellCanvas {}
