/// A grouped table's sections as the state knows them (`sectionHeaders`,
/// `sectionStarts`, `collapsedSections`): which section a row is in, and where
/// the cursor lands when a folded section is in its way. O(log n) a lookup.
extension AppState {
    /// The section holding `row`: its first row, the row after its last, and its name.
    func section(of row: Int) -> (start: Int, end: Int, name: String)? {
        guard let first = sectionStarts.first, row >= first else { return nil }
        var lo = 0, hi = sectionStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if sectionStarts[mid] <= row { lo = mid } else { hi = mid - 1 }
        }
        let start = sectionStarts[lo]
        let end = lo + 1 < sectionStarts.count ? sectionStarts[lo + 1] : rowCount
        return (start, end, sectionHeaders[start] ?? "")
    }

    func isCollapsed(_ section: (start: Int, end: Int, name: String)) -> Bool { collapsedSections.contains(section.name) }

    /// A folded section is one line, standing for its first row: a cursor that moved
    /// into one goes to that row, or past the section when it was moving down from it.
    mutating func stepOverFoldedSection(movingDown: Bool, from previous: Int) {
        guard !collapsedSections.isEmpty, let sec = section(of: cursorRow), isCollapsed(sec), cursorRow != sec.start else { return }
        cursorRow = movingDown && previous >= sec.start && sec.end < rowCount ? sec.end : sec.start
    }
}

extension Reducer {
    /// `z` folds or unfolds the cursor's section; `Z` folds all, or unfolds all when all are folded.
    static func fold(_ s: inout AppState, all: Bool) {
        guard !s.sectionHeaders.isEmpty else { s.setStatus("no sections — :group KEY makes them", error: true); return }
        if all {
            let names = Set(s.sectionHeaders.values)
            s.collapsedSections = s.collapsedSections.isSuperset(of: names) ? [] : names
        } else if let sec = s.section(of: s.cursorRow) {
            if s.collapsedSections.remove(sec.name) == nil { s.collapsedSections.insert(sec.name) }
        }
        // A cursor in a folded section is on its line, which stands for its first row.
        if let sec = s.section(of: s.cursorRow), s.isCollapsed(sec) { s.cursorRow = sec.start }
        s.clamp()
    }
}
