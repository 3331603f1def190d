/// CSV or JSON written record by record: `vellum query` writes each batch as it
/// is read, the browser's `:export` all rows at once, and both get the same bytes.
public struct ExportWriter: Sendable {
    public enum Format: Sendable { case csv, json }

    public let format: Format
    public let header: [String]
    /// Records written so far.
    public private(set) var count = 0
    /// Whether the CSV header is out (an empty first batch writes it too, and only once).
    private var startedCSV = false

    public init(format: Format, header: [String]) {
        self.format = format
        self.header = header
    }

    /// The text of the next records, one value per header column (the CSV header
    /// or the opening bracket comes before the first).
    public mutating func text(for rows: [[Value]]) -> String {
        defer { count += rows.count }
        switch format {
        case .csv:
            var out = startedCSV ? "" : ExportText.csvLine(header)
            startedCSV = true
            for r in rows { ExportText.appendCSVLine(r.map(ExportText.plain), to: &out) }
            return out
        case .json:
            var out = ""
            for (i, r) in rows.enumerated() {
                out += count + i == 0 ? "[\n" : ",\n"
                out += "  " + ExportText.jsonObject(Array(zip(header, r.map(ExportText.jsonValue))))
            }
            return out
        }
    }

    /// What ends the output.
    public func ending() -> String {
        switch format {
        case .csv: return ""
        case .json: return count == 0 ? "[]\n" : "\n]\n"
        }
    }
}
