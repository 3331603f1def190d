import VellumStore
import VellumTerminal

extension Renderer {
    /// The column summary overlay: statistics, then a scrollable histogram or frequency table.
    static func summaryOverlay(_ f: Frame, _ screen: any CellCanvas) {
        guard let o = f.state.summary else { return }
        let size = screen.size
        let width = min(size.columns - 4, 76), height = max(8, size.rows - 4)
        let top = max(0, (size.rows - height) / 2), left = max(0, (size.columns - width) / 2)
        let style = f.theme[.text]
        box(screen, top: top, left: left, width: width, height: height, style: f.theme[.border])
        screen.fill(row: top + 1, col: left + 1, width: width - 2, height: height - 2, style: style)
        let inner = width - 4
        var y = top + 1
        screen.put(row: y, col: left + 2, text: "Summary of \(o.column) (\(o.type.rawValue))", style: f.theme[.header], maxWidth: inner)
        y += 1
        for line in o.statsLines {
            screen.put(row: y, col: left + 2, text: line, style: style, maxWidth: inner)
            y += 1
        }
        let valueWidth = max(8, min(28, inner / 3))
        let barWidth = max(1, inner - valueWidth - 18)
        let header = DisplayWidth.fit(o.rowHeading, toWidth: valueWidth) + " " + DisplayWidth.fit("count", toWidth: 8, alignment: .right)
            + " " + DisplayWidth.fit("%", toWidth: 7, alignment: .right)
        screen.put(row: y, col: left + 2, text: header, style: f.theme[.dim].adding(.underline), maxWidth: inner)
        y += 1
        let listHeight = max(1, top + height - 2 - y)
        if o.rowCount == 0 {
            screen.put(row: y, col: left + 2, text: "no values", style: f.theme[.dim], maxWidth: inner)
        }
        let first = max(0, min(o.cursor - listHeight / 2, o.rowCount - listHeight))
        for (n, i) in (first..<min(o.rowCount, first + listHeight)).enumerated() {
            let st = i == o.cursor ? f.theme[.selection] : style
            screen.fill(row: y + n, col: left + 1, width: width - 2, style: st)
            screen.put(row: y + n, col: left + 2, text: o.line(i, valueWidth: valueWidth, barWidth: barWidth), style: st, maxWidth: inner)
        }
        screen.put(row: top + height - 1, col: left + 2, text: " " + ModeHints.summaryFooter(f.state.keyMap) + "\(o.tableNote) ", style: f.theme[.border], maxWidth: inner)
    }
}
