import VellumTerminal

extension Renderer {
    /// The whole screen while the terminal is below `Layout.minimumSize`.
    static func drawTooSmall(size: TerminalSize, ignoredKeys: Int, on screen: any CellCanvas) {
        screen.clear(style: .plain)
        screen.put(row: 0, col: 0, text: "Terminal too small (\(size.columns)x\(size.rows)); need at least \(Layout.minimumSize.columns)x\(Layout.minimumSize.rows).")
        screen.put(row: 1, col: 0, text: "Keys are ignored; ^C quits.")
        if ignoredKeys > 0 { screen.put(row: 2, col: 0, text: "keys ignored: \(ignoredKeys)") }
        screen.refresh()
    }
}
