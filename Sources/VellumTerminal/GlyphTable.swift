/// The symbols the browser draws, each with the ASCII form the screen uses
/// when the locale's character set is not UTF-8 (`LC_ALL=C`): there the
/// terminal would show UTF-8 bytes as mojibake.
///
/// Why one table the screen applies, not two sets the renderer picks from:
/// every piece of text (borders, markers, messages, user data) passes through
/// `Screen.put`, so nothing can slip past in UTF-8. Both forms of an entry
/// are one cell wide, so a layout measured in Unicode holds in ASCII.
public enum GlyphTable {
    /// Unicode symbol → its ASCII stand-in.
    public static let ascii: [Unicode.Scalar: Unicode.Scalar] = {
        var table: [Unicode.Scalar: Unicode.Scalar] = [
            "│": "|", "─": "-", "┌": "+", "┐": "+", "└": "+", "┘": "+",
            "├": "+", "┤": "+", "┬": "+", "┴": "+", "┼": "+",
            "▲": "^", "▼": "v", "▸": ">", "●": "*", "·": ".", "…": "~",
            "∅": "-", "⚠": "!", "↑": "^", "↓": "v", "←": "<", "→": ">",
            "—": "-", "–": "-", "“": "\"", "”": "\"", "‘": "'", "’": "'",
            "█": "#", "▉": "#", "▊": "#", "▋": "#", "▌": "+", "▍": "+", "▎": "+", "▏": "+",
            ControlMarkers.tab: ">", ControlMarkers.newline: "$", ControlMarkers.invalid: "?",
        ]
        for picture in ControlMarkers.pictures { table[picture] = "?" }
        return table
    }()

    /// What stands for a scalar that has no ASCII form.
    public static let unknown: Unicode.Scalar = "?"

    /// The ASCII form of one drawn cell's base scalar.
    public static func asciiForm(of scalar: Unicode.Scalar) -> Unicode.Scalar {
        scalar.isASCII ? scalar : ascii[scalar] ?? unknown
    }
}
