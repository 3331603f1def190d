import VellumStore

/// The text of yanked rows.
enum YankText {
    /// TSV has a header line; text is the same without it; JSON is `:export json`'s.
    /// Tabs and line breaks inside values become spaces, so each row stays one line.
    static func rows(keys: [String], values: [[Value]], format: Yank.Format) -> String {
        if format == .json { return ExportText.json(keys: keys, rows: values) }
        let lines = values.map { row in row.map { cell(ExportText.plain($0)) }.joined(separator: "\t") }
        return ((format == .tsv ? [keys.joined(separator: "\t")] : []) + lines).joined(separator: "\n")
    }

    private static func cell(_ text: String) -> String {
        String(text.map { $0 == "\t" || $0 == "\n" || $0 == "\r" ? " " : $0 })
    }
}
