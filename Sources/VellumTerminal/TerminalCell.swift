import CCurses

/// One terminal cell as the screen draws it: a spacing scalar followed by up
/// to four zero-width ones (ncurses keeps five characters per cell), and the
/// columns it takes (1 or 2).
public struct TerminalCell: Sendable, Hashable {
    public var scalars: [Unicode.Scalar]
    public var width: Int
}

/// How text becomes cells — the same way ncurses and the terminal lay it out,
/// so the columns the app computes are the columns the terminal uses.
///
/// Widths are the C library's `wcwidth` (its UTF-8 tables, maintained with
/// each Unicode release), which ncurses uses for its screen and xterm, VTE and
/// tmux use for theirs: a scalar of width 0 joins the cell before it, any
/// other starts a cell. A grapheme cluster whose scalars start several cells
/// (an emoji with a skin-tone modifier, a flag's two regional indicators, a
/// ZWJ sequence) is drawn as those cells side by side. Zero width joiners are
/// left out: terminals disagree on whether one merges the next cell into the
/// previous one (tmux does, xterm does not), and where they disagree the rest
/// of the row would shift.
public enum TerminalCells {
    /// Zero-width scalars kept per cell after its base (ncurses' CCHARW_MAX − 1).
    static let maxJoined = 4
    static let zeroWidthJoiner: UInt32 = 0x200D

    /// The cells `character` is drawn as, control characters as their
    /// markers. A lone combining mark gets a space as its base; other lone
    /// zero-width scalars (a zero width space) draw nothing.
    public static func cells(of character: Character) -> [TerminalCell] {
        var cells: [TerminalCell] = []
        for scalar in character.unicodeScalars where scalar.value != zeroWidthJoiner {
            let shown = ControlMarkers.marker(for: scalar) ?? scalar
            switch width(of: shown) {
            case 0:
                if cells.isEmpty {
                    guard isMark(shown) else { continue }
                    cells.append(TerminalCell(scalars: [" "], width: 1))
                }
                if cells[cells.count - 1].scalars.count <= maxJoined { cells[cells.count - 1].scalars.append(shown) }
            case let w where w < 0:
                cells.append(TerminalCell(scalars: [ControlMarkers.invalid], width: 1))
            case let w:
                cells.append(TerminalCell(scalars: [shown], width: w))
            }
        }
        return cells
    }

    /// Columns of `character` as drawn (the sum of its cells).
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        if scalars.count == 1, let only = scalars.first {
            if only.value >= 0x20 && only.value < 0x7F { return 1 }
            let shown = ControlMarkers.marker(for: only) ?? only
            let w = width(of: shown)
            return w == 0 ? (isMark(shown) ? 1 : 0) : max(w, 1)
        }
        return cells(of: character).reduce(0) { $0 + $1.width }
    }

    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: true
        default: false
        }
    }

    /// The C library's width of one scalar: 0, 1, 2, or −1 when it has none.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        return Int(ccurses_wcwidth_utf8(v))
    }
}
