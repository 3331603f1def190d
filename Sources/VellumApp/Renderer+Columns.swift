import VellumTerminal

extension Renderer {
    /// The `C` list: every column of the entity in table order, hidden ones marked,
    /// with the resize each was given; the cursor line is the one Space toggles.
    static func columnList(_ f: Frame, _ screen: any CellCanvas) {
        let s = f.state, size = screen.size, layout = s.currentColumnLayout
        let names = layout.ordered(s.allColumnNames)
        let width = min(size.columns - 4, 50), height = min(size.rows - 2, names.count + 5)
        let top = max(0, (size.rows - height) / 2), left = max(0, (size.columns - width) / 2)
        box(screen, top: top, left: left, width: width, height: height, style: f.theme[.border])
        screen.fill(row: top + 1, col: left + 1, width: width - 2, height: height - 2, style: f.theme[.text])
        screen.put(row: top + 1, col: left + 2, text: "Columns of \(s.currentEntityName ?? "-")", style: f.theme[.header], maxWidth: width - 4)
        let listHeight = max(1, height - 5)
        let first = max(0, min(s.columnListCursor - listHeight / 2, names.count - listHeight))
        for (line, i) in (first..<min(names.count, first + listHeight)).enumerated() {
            let name = names[i]
            let mark = layout.hidden.contains(name) ? "[ ] " : "[x] "
            let resize = layout.widthChanges[name].map { $0 > 0 ? "  width +\($0)" : "  width \($0)" } ?? ""
            let style = i == s.columnListCursor ? f.theme[.selection] : f.theme[.text]
            screen.fill(row: top + 2 + line, col: left + 1, width: width - 2, style: style)
            screen.put(row: top + 2 + line, col: left + 2, text: mark + name + resize, style: style, maxWidth: width - 4)
        }
        screen.put(row: top + height - 2, col: left + 2, text: ModeHints.columnList(s.keyMap), style: f.theme[.dim], maxWidth: width - 4)
    }
}
