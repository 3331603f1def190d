import VellumStore
import VellumTerminal

/// `vellum query` output, written batch by batch as rows are read (nothing is
/// held beyond one batch). Table columns are aligned on the first batch; table
/// cells are capped at `maxWidth` display columns (nil: full values) and show
/// control characters visibly. CSV and JSON carry values exactly.
struct QueryPrinter {
    struct Row {
        var id: String
        var values: [Value]
        var links: [String?]
    }

    let format: QueryCommand.Format
    let header: [String]
    let maxWidth: Int?
    private var widths: [Int]?
    /// CSV and JSON: the same writer as the browser's `:export`.
    private var export: ExportWriter
    private(set) var count = 0

    init(format: QueryCommand.Format, header: [String], maxWidth: Int?) {
        self.format = format
        self.header = header
        self.maxWidth = maxWidth
        export = ExportWriter(format: format == .json ? .json : .csv, header: header)
    }

    /// The text for the next batch of rows (the header or opening bracket before the first).
    mutating func text(for rows: [Row]) -> String {
        defer { count += rows.count }
        switch format {
        case .csv, .json:
            return export.text(for: rows.map { [.string($0.id)] + $0.values + $0.links.map { $0.map(Value.string) ?? .null } })
        case .table:
            // IDs are never cut: they are what a user copies into the next command.
            let cells = rows.map { r in [r.id] + r.values.map { cell($0.description) } + r.links.map { $0 ?? "nil" } }
            var out = ""
            if widths == nil {
                var w = header.map { DisplayWidth.of($0) }
                for row in cells { for (i, c) in row.enumerated() { w[i] = max(w[i], DisplayWidth.of(c)) } }
                widths = w
                out += line(header)
            }
            for row in cells { out += line(row) }
            return out
        }
    }

    /// What ends the output.
    func ending() -> String {
        switch format {
        case .csv, .json: return export.ending()
        case .table: return (widths == nil ? line(header) : "") + "(\(count) object\(count == 1 ? "" : "s"))\n"
        }
    }

    private func line(_ row: [String]) -> String {
        var text = ""
        for (i, c) in row.enumerated() {
            text += c
            if i < row.count - 1 { text += String(repeating: " ", count: max(0, (widths?[i] ?? 0) - DisplayWidth.of(c)) + 2) }
        }
        while text.hasSuffix(" ") { text.removeLast() }
        return text + "\n"
    }

    /// A table cell: control characters shown visibly, then capped with `…`.
    func cell(_ text: String) -> String {
        let visible = Self.visible(text)
        guard let maxWidth, DisplayWidth.of(visible) > maxWidth else { return visible }
        var out = ""
        var width = 0
        for ch in visible {
            let w = DisplayWidth.of(ch)
            if width + w > maxWidth - 1 { break }
            out.append(ch)
            width += w
        }
        return out + "…"
    }

    /// ESC as `\e`, tab, CR and LF as `\t` `\r` `\n`, other C0, DEL and C1 as `\u{XX}`:
    /// stored escape sequences never reach the terminal raw.
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        for u in text.unicodeScalars {
            switch u {
            case "\u{1B}": out += "\\e"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default:
                if isControl(u) { out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}" } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    static func isControl(_ u: Unicode.Scalar) -> Bool { u.value < 0x20 || (0x7F...0x9F).contains(u.value) }
}
