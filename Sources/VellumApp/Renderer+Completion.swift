import VellumTerminal

extension Renderer {
    /// The `:` line's completion menu: a framed list just above the line, under the
    /// word it completes; the candidate Tab put in the line is highlighted, and the
    /// bottom edge says how many there are when not all fit.
    static func completionMenu(_ f: Frame, _ screen: any CellCanvas) {
        let s = f.state
        guard let menu = CompletionMenu(line: s.completionCycle?.line ?? s.editor.text, in: s), menu.isShown else { return }
        let statusRow = f.layout.status.row
        let rows = min(menu.matches.count, CompletionMenu.maxRows(screenRows: screen.size.rows), statusRow - 2)
        guard rows > 0 else { return }
        let selected = s.completionCycle?.index
        let shown = menu.window(selected: selected, rows: rows)
        let count = shown.count == menu.matches.count ? "" : selected.map { " \($0 + 1)/\(menu.matches.count) " } ?? " \(menu.matches.count) "
        let textWidth = max(menu.matches[shown].map(DisplayWidth.of).max() ?? 1, DisplayWidth.of(count))
        let width = min(textWidth + 4, screen.size.columns)
        // The candidates line up under the word (after the `:` prompt and the command
        // name, less the frame and its padding), kept on screen.
        let left = max(0, min(1 + DisplayWidth.of(menu.head) - 2, screen.size.columns - width))
        let top = statusRow - rows - 2
        box(screen, top: top, left: left, width: width, height: rows + 2, style: f.theme[.border])
        for (line, i) in shown.enumerated() {
            let style = i == selected ? f.theme[.selection] : f.theme[.text]
            screen.fill(row: top + 1 + line, col: left + 1, width: width - 2, style: style)
            screen.put(row: top + 1 + line, col: left + 2, text: menu.matches[i], style: style, maxWidth: width - 4)
        }
        if !count.isEmpty {
            screen.put(row: top + rows + 1, col: left + max(1, width - 1 - DisplayWidth.of(count)), text: count, style: f.theme[.border])
        }
    }
}
