import VellumTerminal

/// Jumps: a count typed before `G` (`123G`) or `:123` goes to that row; `g`,
/// `G` and those jumps can be walked back (`[`) and forward (`]`).
extension Reducer {
    /// Takes a digit of a count (a first `0` is the first-column key); true when taken.
    static func takeCountDigit(_ s: inout AppState, _ key: VellumTerminal.Key) -> Bool {
        guard s.focus == .table, case .char(let c) = key, c.isASCII, let digit = c.wholeNumberValue,
              digit != 0 || !s.countPrefix.isEmpty, s.countPrefix.count < 12 else { return false }
        s.countPrefix.append(c)
        s.setStatus("\(s.countPrefix) — G goes to row \(s.countPrefix)")
        return true
    }

    /// The jump keys, or nil for the other actions (`count` is the number typed before the key).
    static func jumps(_ s: inout AppState, _ action: KeyAction, count: String) -> [Effect]? {
        if !count.isEmpty { s.setStatus(nil) }   // the count's hint is no longer true
        guard s.focus == .table else { return nil }
        switch action {
        case .bottom where !count.isEmpty: return jump(&s, toRow: Int(count) ?? 0)
        case .top, .bottom:
            s.jumps.leave(s.cursorRow)
            return nil
        case .jumpBack, .jumpForward:
            let target = action == .jumpBack ? s.jumps.goBack(from: s.cursorRow) : s.jumps.goForward(from: s.cursorRow)
            guard let target else {
                s.setStatus(action == .jumpBack ? "no earlier jump" : "no later jump")
                return []
            }
            s.cursorRow = target
            s.clamp()
            return []
        default: return nil
        }
    }

    /// Goes to row `row` (1-based, as the status bar counts).
    static func jump(_ s: inout AppState, toRow row: Int) -> [Effect] {
        guard (1...max(1, s.rowCount)).contains(row), s.rowCount > 0 else {
            s.setStatus("no row \(row): the list has \(s.rowCount) row\(s.rowCount == 1 ? "" : "s")", error: true)
            return []
        }
        s.jumps.leave(s.cursorRow)
        s.cursorRow = row - 1
        s.focus = .table
        s.clamp()
        return []
    }
}
