import VellumStore
import VellumTerminal

/// One line of the table body: a record row or a section header (grouped tables).
public enum TableLine: Sendable, Equatable {
    case header(String)
    case row(Int)
}

extension AppState {
    /// The table body lines from the scroll offset, `height` lines at most. With
    /// section headers the start moves down until the cursor row is visible.
    public func tableLines(height: Int) -> [TableLine] {
        guard height > 0, rowCount > 0 else { return [] }
        func build(_ start: Int) -> [TableLine] {
            var lines: [TableLine] = []
            var i = start
            while lines.count < height, i < rowCount {
                if let h = sectionHeaders[i] {
                    lines.append(.header(h))
                    if lines.count == height { break }
                }
                lines.append(.row(i))
                i += 1
            }
            return lines
        }
        var start = min(scrollOffset, rowCount - 1)
        var lines = build(start)
        while !lines.contains(.row(cursorRow)), start < cursorRow {
            start += 1
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
        switch key {
        case .escape, .char("q"), .char("F"):
            s.mode = .browse
            s.summary = nil
            return []
        case .char("j"), .down: overlay.cursor += 1
        case .char("k"), .up: overlay.cursor -= 1
        case .char("g"), .home: overlay.cursor = 0
        case .char("G"), .end: overlay.cursor = overlay.buckets.count - 1
        case .pageDown, .ctrl("f"): overlay.cursor += page
        case .pageUp, .ctrl("b"): overlay.cursor -= page
        case .mouse(let e) where e.kind == .wheelDown: overlay.cursor += 3
        case .mouse(let e) where e.kind == .wheelUp: overlay.cursor -= 3
        case .enter:
            guard let text = overlay.filterText(at: overlay.cursor) else { return [] }
            s.mode = .browse
            s.summary = nil
            return runCommand(&s, "filter " + text)
        default: return []
        }
        overlay.cursor = overlay.buckets.isEmpty ? 0 : min(max(0, overlay.cursor), overlay.buckets.count - 1)
        s.summary = overlay
        return []
    }

    // MARK: Text search

    static func search(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch key {
        case .escape:
            s.mode = .browse
            return []
        case .enter:
            s.mode = .browse
            let text = s.editor.text
            guard !text.isEmpty else { return [] }
            s.searchText = text
            return [.search(text, forward: true)]
        default:
            s.editor.handle(key)
            return []
        }
    }

    /// The predicate for a text search: any string attribute CONTAINS[cd] the text.
    public static func searchPredicate(_ text: String, attributes: [String]) -> VellumStore.Predicate {
        let parts = attributes.map {
            VellumStore.Predicate.comparison(Comparison(.key($0), .contains, .constant(.string(text)), options: [.caseInsensitive, .diacriticInsensitive]))
        }
        return parts.dropFirst().reduce(parts.first ?? .constant(false)) { .or($0, $1) }
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

    /// Tab in the command line: completes the word before the end of the line.
    static func complete(_ s: inout AppState) {
        let text = s.editor.text
        let endsWithSpace = text.last?.isWhitespace ?? false
        let words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let candidates: [String]
        let prefix: String
        var head: [String]
        if words.isEmpty || (words.count == 1 && !endsWithSpace) {
            candidates = CommandTable.typedNames; prefix = words.first ?? ""; head = []
        } else {
            let argumentIndex = endsWithSpace ? words.count - 1 : words.count - 2
            guard argumentIndex == 0 else { return }     // only the first argument completes
            prefix = endsWithSpace ? "" : words.last!
            head = [words[0]]
            guard let command = CommandTable.typed(words[0]) else { return }
            candidates = command.completion.candidates(in: s)
        }
        let matches = candidates.filter { $0.lowercased().hasPrefix(prefix.lowercased()) }
        guard !matches.isEmpty else { s.setStatus("no completion for '\(prefix)'", error: true); return }
        var completed = commonPrefix(matches)
        if completed.count < prefix.count { completed = prefix }
        let unique = matches.count == 1
        if !unique { s.setStatus(matches.joined(separator: " ")) } else { s.setStatus(nil) }
        head.append(completed)
        s.editor.setText(head.joined(separator: " ") + (unique ? " " : ""))
    }

    static func commonPrefix(_ items: [String]) -> String {
        guard var p = items.first.map(Array.init) else { return "" }
        for item in items.dropFirst() {
            let a = Array(item)
            var n = 0
            while n < p.count, n < a.count, String(p[n]).lowercased() == String(a[n]).lowercased() { n += 1 }
            p = Array(p.prefix(n))
        }
        return String(p)
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
                let line = e.y - layout.table.row - 1
                let lines = s.tableLines(height: layout.visibleRows)
                guard lines.indices.contains(line), case .row(let row) = lines[line] else { return [] }
                s.focus = .table
                s.cursorRow = row
            } else if inside(layout.detail) {
                let field = e.y - layout.detail.row - 1
                guard field >= 0, field < s.detailFieldCount else { return [] }
                s.focus = .detail
                s.detailCursor = field
            }
        }
        s.clamp()
        return []
    }
}
