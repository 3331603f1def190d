import VellumStore
import VellumTerminal

/// One line of the table body: a record row or a section header (grouped tables).
public enum TableLine: Sendable, Equatable {
    /// An open section's header: `name (count)`.
    case header(String)
    case row(Int)
    /// A folded section (`z`): its header, standing for its rows from `row` on.
    case folded(String, row: Int)

    /// The row a cursor on this line is at.
    var row: Int? {
        switch self {
        case .row(let r), .folded(_, let r): return r
        case .header: return nil
        }
    }
}

extension AppState {
    /// The table body lines from the scroll offset, `height` lines at most. With
    /// section headers the start moves down until the cursor row is visible.
    public func tableLines(height: Int) -> [TableLine] {
        guard height > 0, rowCount > 0 else { return [] }
        func build(_ start: Int) -> [TableLine] {
            var lines: [TableLine] = []
            var i = start
            // Starting inside a folded section starts at its line.
            if let sec = section(of: i), isCollapsed(sec) { i = sec.start }
            while lines.count < height, i < rowCount {
                if let h = sectionHeaders[i], let sec = section(of: i) {
                    let figure = sectionAggregate.flatMap { a in sectionFigures[h].map { " · \(a.label) \($0)" } } ?? ""
                    let title = "\(h) (\(sec.end - sec.start))\(figure)"
                    if isCollapsed(sec) {
                        lines.append(.folded(title, row: i))
                        i = sec.end
                        continue
                    }
                    lines.append(.header(title))
                    if lines.count == height { break }
                }
                lines.append(.row(i))
                i += 1
            }
            return lines
        }
        var start = min(scrollOffset, rowCount - 1)
        var lines = build(start)
        while !lines.contains(where: { $0.row == cursorRow }), start < cursorRow {
            start = section(of: start).map { isCollapsed($0) ? $0.end : start + 1 } ?? start + 1
            lines = build(start)
        }
        return lines
    }
}

extension Reducer {
    // MARK: Column summary overlay

    static func summary(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        guard var overlay = s.summary else { s.mode = .browse; return [] }
        let page = max(1, s.pageSize - 4)
        // Its own keys first (Enter, Esc, q, F), then the list keys that move.
        let own = s.keyMap.modeAction(for: key, in: .summary)
        switch (key, own, own == nil ? s.keyMap.action(for: key) : nil) {
        case (_, .summaryClose?, _):
            s.mode = .browse
            s.summary = nil
            return []
        case (_, _, .moveDown?): overlay.cursor += 1
        case (_, _, .moveUp?): overlay.cursor -= 1
        case (_, _, .top?): overlay.cursor = 0
        case (_, _, .bottom?): overlay.cursor = overlay.rowCount - 1
        case (_, _, .pageDown?): overlay.cursor += page
        case (_, _, .pageUp?): overlay.cursor -= page
        case (.mouse(let e), _, _) where e.kind == .wheelDown: overlay.cursor += 3
        case (.mouse(let e), _, _) where e.kind == .wheelUp: overlay.cursor -= 3
        case (_, .summaryFilter?, _):
            guard let text = overlay.filterText(at: overlay.cursor) else { return [] }
            s.mode = .browse
            s.summary = nil
            return runCommand(&s, "filter " + text)
        default: return []
        }
        overlay.cursor = overlay.rowCount == 0 ? 0 : min(max(0, overlay.cursor), overlay.rowCount - 1)
        s.summary = overlay
        return []
    }

    // MARK: Text search

    static func search(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .line) {
        case .lineCancel?:
            s.mode = .browse
            s.promptError = nil
            return []
        case .lineConfirm?:
            let text = s.editor.text
            // A pattern that cannot run keeps the prompt open with the reason, as `/` does.
            if let problem = FindPattern(text, regex: s.searchIsRegex).problem {
                s.promptError = problem
                return []
            }
            s.mode = .browse
            s.promptError = nil
            guard !text.isEmpty else { return [] }
            s.searchText = text
            return [.search(text, forward: true, regex: s.searchIsRegex)]
        case .lineRegex?:
            s.searchIsRegex.toggle()
            s.promptError = nil
            return []
        default:
            s.editor.handle(key)
            s.promptError = nil
            return []
        }
    }

    /// The predicate for a text search: any string attribute CONTAINS[cd] the text.
    public static func searchPredicate(_ text: String, attributes: [String]) -> VellumStore.QueryPredicate {
        FindPattern(text).predicate(attributes: attributes)
    }

    /// The next match after (or before) `cursor` among `matches` (sorted row indices), wrapping.
    public static func nextMatch(_ matches: [Int], after cursor: Int, forward: Bool) -> (row: Int, wrapped: Bool)? {
        guard !matches.isEmpty else { return nil }
        if forward {
            if let m = matches.first(where: { $0 > cursor }) { return (m, false) }
            return (matches[0], true)
        }
        if let m = matches.last(where: { $0 < cursor }) { return (m, false) }
        return (matches[matches.count - 1], true)
    }

    // MARK: Command line completion

    /// Tab (Shift-Tab: `backward`) in the command line. The menu of candidates shows
    /// as the word is typed (`CompletionMenu`); Tab completes what every candidate
    /// shares, a single candidate whole, and once nothing more is shared it walks
    /// the menu, each press putting the next candidate in the line.
    static func complete(_ s: inout AppState, backward: Bool = false) {
        // A walk goes on only while the line still holds the candidate it put there.
        if var cycle = s.completionCycle, let menu = CompletionMenu(line: cycle.line, in: s),
           menu.matches.indices.contains(cycle.index), s.editor.text == menu.head + menu.matches[cycle.index] {
            let n = menu.matches.count
            cycle.index = (cycle.index + (backward ? n - 1 : 1)) % n
            s.completionCycle = cycle
            s.editor.setText(menu.head + menu.matches[cycle.index])
            return
        }
        s.completionCycle = nil
        guard let menu = CompletionMenu(line: s.editor.text, in: s) else { return }
        guard !menu.matches.isEmpty else { s.setStatus("no completion for '\(menu.prefix)'", error: true); return }
        if menu.matches.count == 1 {
            s.editor.setText(menu.head + menu.matches[0] + " ")
            return
        }
        let common = menu.commonPrefix
        if common.count > menu.prefix.count {
            s.editor.setText(menu.head + common)
            return
        }
        let index = backward ? menu.matches.count - 1 : 0
        s.completionCycle = CompletionCycle(line: s.editor.text, index: index)
        s.editor.setText(menu.head + menu.matches[index])
    }

    // MARK: Mouse

    static func mouse(_ s: inout AppState, _ e: MouseEvent) -> [Effect] {
        guard let layout = s.layout else { return [] }
        func inside(_ r: Rect) -> Bool { e.x >= r.col && e.x < r.col + r.width && e.y >= r.row && e.y < r.row + r.height }
        switch e.kind {
        case .wheelUp, .wheelDown:
            let delta = e.kind == .wheelDown ? 3 : -3
            if inside(layout.sidebar) { s.sidebarCursor += delta } else { s.cursorRow += delta; s.scrollOffset += delta }
        case .click:
            if inside(layout.sidebar) {
                let index = e.y - layout.sidebar.row - 1
                guard s.entityNames.indices.contains(index) else { return [] }
                s.focus = .sidebar
                s.clamp()
                return open(&s, index)
            } else if inside(layout.table) {
                if e.y == layout.table.row { return headerPressed(&s, at: e.x) }
                let line = e.y - layout.table.row - 1
                let lines = s.tableLines(height: layout.visibleRows)
                guard lines.indices.contains(line), let row = lines[line].row else { return [] }
                s.focus = .table
                s.cursorRow = row
            } else if inside(layout.detail) {
                let field = e.y - layout.detail.row - 1
                guard field >= 0, field < s.detailFieldCount else { return [] }
                s.focus = .detail
                s.detailCursor = field
            }
        case .release:
            return columnDragEnded(&s, at: e.x)
        }
        s.clamp()
        return []
    }
}
