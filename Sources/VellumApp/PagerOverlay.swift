import VellumTerminal

/// Where the full-value viewer draws at a screen size, and how far it scrolls:
/// the reducer (paging, search jumps) and the renderer use the same numbers.
struct PagerOverlay {
    let size: TerminalSize

    /// The frame: the whole screen above the status bar (which says where a search
    /// landed) and the hint line.
    var box: (top: Int, left: Int, width: Int, height: Int) { (0, 0, size.columns, max(3, size.rows - 2)) }
    /// Columns of text inside the frame (so a 78-column hex dump line fits at 80).
    var textWidth: Int { max(1, box.width - 2) }
    /// Lines of text inside the frame.
    var pageSize: Int { max(1, box.height - 2) }

    func maxScroll(_ pager: PagerState) -> Int { max(0, pager.lines(width: textWidth).count - pageSize) }
    func clamped(_ scroll: Int, _ pager: PagerState) -> Int { min(max(0, scroll), maxScroll(pager)) }
}
