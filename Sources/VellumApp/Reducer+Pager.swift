import VellumTerminal

/// The full-value viewer (`v`): scrolls like the help, searches within the value.
extension Reducer {
    static func pager(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        guard var p = s.pager else { s.mode = .browse; return [] }
        let overlay = PagerOverlay(size: s.layout?.size ?? HelpOverlay.fallbackSize)
        p.fit(width: overlay.textWidth)
        if p.searching {
            switch s.keyMap.modeAction(for: key, in: .line) {
            case .lineCancel?: p.searching = false
            case .lineConfirm?:
                p.searching = false
                p.query = s.editor.text
                jump(&p, forward: true, from: p.scroll, overlay, &s)
            default: s.editor.handle(key)
            }
            p.scroll = overlay.clamped(p.scroll, p)
            s.pager = p
            return []
        }
        switch (key, s.keyMap.action(for: key), s.keyMap.modeAction(for: key, in: .pager)) {
        case (_, _, .pagerClose?):
            s.mode = .browse
            s.pager = nil
            return []
        case (_, _, .pagerSearch?):
            p.searching = true
            s.editor = LineEditor(p.query)
        case (_, _, .pagerNext?): jump(&p, forward: true, from: p.scroll + 1, overlay, &s)
        case (_, _, .pagerPrevious?): jump(&p, forward: false, from: p.scroll - 1, overlay, &s)
        case (.mouse(let event), _, _) where event.kind == .wheelDown: p.scroll += 3
        case (.mouse(let event), _, _) where event.kind == .wheelUp: p.scroll -= 3
        case (_, .moveDown?, _): p.scroll += 1
        case (_, .moveUp?, _): p.scroll -= 1
        case (_, .pageDown?, _): p.scroll += overlay.pageSize
        case (_, .pageUp?, _): p.scroll -= overlay.pageSize
        case (_, .top?, _): p.scroll = 0
        case (_, .bottom?, _): p.scroll = overlay.maxScroll(p)
        default: break
        }
        p.scroll = overlay.clamped(p.scroll, p)
        s.pager = p
        return []
    }

    /// Scrolls so the next (or previous) line holding the query is the first shown.
    private static func jump(_ p: inout PagerState, forward: Bool, from line: Int, _ overlay: PagerOverlay, _ s: inout AppState) {
        guard !p.query.isEmpty else { return }
        let matches = p.matches(width: overlay.textWidth)
        guard !matches.isEmpty else { s.setStatus("'\(p.query)' is not in this value", error: true); return }
        let next = forward ? (matches.first { $0 >= line } ?? matches[0]) : (matches.last { $0 <= line } ?? matches[matches.count - 1])
        p.scroll = next
        let n = (matches.firstIndex(of: next) ?? 0) + 1
        s.setStatus("'\(p.query)': line \(next + 1), match \(n) of \(matches.count)")
    }
}
