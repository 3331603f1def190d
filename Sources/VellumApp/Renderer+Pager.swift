import VellumTerminal

extension Renderer {
    /// The full-value viewer: the value wrapped to the frame, the query's matches in the
    /// highlight role, and where the view is (`lines 1–20 of 140`).
    static func pager(_ f: Frame, _ screen: any CellCanvas) {
        guard let p = f.state.pager else { return }
        let overlay = PagerOverlay(size: screen.size), b = overlay.box, t = f.theme
        box(screen, top: b.top, left: b.left, width: b.width, height: b.height, style: t[.border])
        screen.fill(row: b.top + 1, col: b.left + 1, width: b.width - 2, height: b.height - 2, style: t[.text])
        screen.put(row: b.top, col: b.left + 2, text: " \(p.document.title) (\(p.document.kind)) ", style: t[.header], maxWidth: b.width - 4)
        let lines = p.lines(width: overlay.textWidth)
        for (y, i) in (p.scroll..<min(lines.count, p.scroll + overlay.pageSize)).enumerated() {
            let row = b.top + 1 + y, line = lines[i]
            screen.put(row: row, col: b.left + 1, text: line, style: t[.text], maxWidth: overlay.textWidth)
            // Each match of the query, drawn again over the line in the highlight role.
            var from = line.startIndex
            while !p.query.isEmpty, let r = line.range(of: p.query, options: .caseInsensitive, range: from..<line.endIndex) {
                let x = b.left + 1 + DisplayWidth.of(String(line[..<r.lowerBound]))
                screen.put(row: row, col: x, text: String(line[r]), style: t[.highlight].adding(.bold), maxWidth: b.left + 1 + overlay.textWidth - x)
                from = r.upperBound
            }
        }
        let last = min(lines.count, p.scroll + overlay.pageSize)
        let place = lines.isEmpty ? "empty" : "lines \(p.scroll + 1)–\(last) of \(lines.count)"
        screen.put(row: b.top + b.height - 1, col: b.left + 2, text: " \(place) ", style: t[.border], maxWidth: b.width - 4)
        if p.searching {
            screen.fill(row: f.layout.hints.row, col: 0, width: screen.size.columns, style: t[.status])
            screen.put(row: f.layout.hints.row, col: 0, text: "search: ", style: t[.statusText])
            editorLine(f.state.editor, row: f.layout.hints.row, col: 8, width: screen.size.columns - 8, style: t[.status], screen)
        }
    }
}
