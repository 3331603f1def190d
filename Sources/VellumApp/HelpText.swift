import VellumTerminal

/// The `?` help's lines at a given width: each section's keys padded to the
/// section's widest label, so every description starts in one column, and a
/// description too long for the width wrapped under itself, never cut.
enum HelpText {
    struct Section {
        var title: String
        var entries: [(label: String, help: String)]
    }

    /// Labels wider than this get a line of their own, so one long user binding
    /// cannot push every description of its section off the screen.
    static let maxLabelWidth = 22

    static func lines(_ sections: [Section], width: Int) -> [String] {
        var lines: [String] = []
        for section in sections {
            lines.append(section.title)
            let labelWidth = min(maxLabelWidth, section.entries.map { DisplayWidth.of($0.label) }.max() ?? 0)
            let indent = 2 + labelWidth + 1
            for entry in section.entries {
                let wrapped = wrap(entry.help, width: max(8, width - indent))
                if DisplayWidth.of(entry.label) > labelWidth {
                    lines.append("  " + entry.label)
                    lines += wrapped.map { String(repeating: " ", count: indent) + $0 }
                    continue
                }
                lines.append("  " + DisplayWidth.pad(entry.label, toWidth: labelWidth) + " " + (wrapped.first ?? ""))
                lines += wrapped.dropFirst().map { String(repeating: " ", count: indent) + $0 }
            }
        }
        return lines
    }

    /// Words packed into lines of at most `width` cells; a word longer than the width ends in an ellipsis.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if current.isEmpty { current = word; continue }
            if DisplayWidth.of(current) + 1 + DisplayWidth.of(word) <= width { current += " " + word; continue }
            lines.append(current)
            current = word
        }
        lines.append(current)
        return lines.map { DisplayWidth.of($0) > width ? DisplayWidth.truncate($0, toWidth: width, ellipsis: "…") : $0 }
    }
}
