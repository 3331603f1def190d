import Foundation

/// Value text for CSV and JSON output, shared by `vellum query` and the
/// browser's `:export`: null empty (CSV) or `null` (JSON), dates ISO 8601,
/// binary base64. JSON is written by hand so key order and number forms stay exact.
public enum ExportText {
    /// Text for a CSV cell: null empty, dates ISO 8601, binary base64.
    public static func plain(_ v: Value) -> String {
        switch v {
        case .null: return ""
        case .data(let d): return d.base64EncodedString()
        default: return v.description
        }
    }

    /// A CSV field, quoted when it holds a comma, quote or line break. Checked byte by byte:
    /// by `Character`, a CRLF is one grapheme equal to neither `"\r"` nor `"\n"` (and
    /// walking graphemes was the largest cost of exporting a million rows).
    public static func csvField(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) else { return s }
        return s.enclosed(in: "\"")
    }

    /// One CSV record with CRLF.
    public static func csvLine(_ cells: [String]) -> String {
        var line = ""
        appendCSVLine(cells, to: &line)
        return line
    }

    /// `csvLine(cells)` appended to `out`, without a String per line.
    static func appendCSVLine(_ cells: [String], to out: inout String) {
        for (i, cell) in cells.enumerated() {
            if i > 0 { out += "," }
            out += csvField(cell)
        }
        out += "\r\n"
    }

    /// A JSON string literal: quote, backslash and C0 controls escaped.
    public static func jsonString(_ s: String) -> String { QuotedString.quoted(s, .json) }

    /// A value as JSON text: numbers and booleans bare, non-finite doubles null, the rest strings.
    public static func jsonValue(_ v: Value) -> String {
        switch v {
        case .null: return "null"
        case .integer(let i): return String(i)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .decimal(let d): return "\(d)"
        case .bool(let b): return b ? "true" : "false"
        case .string(let s): return jsonString(s)
        case .date(let d): return jsonString(Value.iso8601(d))
        case .data(let d): return jsonString(d.base64EncodedString())
        case .uuid(let u): return jsonString(u.uuidString)
        case .uri(let u): return jsonString(u.absoluteString)
        }
    }

    /// `{"k":v,...}`, members in the given order (values already JSON text).
    public static func jsonObject(_ members: [(String, String)]) -> String {
        "{" + members.map { jsonString($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    /// CSV of `rows` under `header` (CRLF line ends).
    public static func csv(header: [String], rows: [[Value]]) -> String { document(.csv, header, rows) }

    /// A JSON array of objects, one per line, keys in `keys` order.
    public static func json(keys: [String], rows: [[Value]]) -> String { document(.json, keys, rows) }

    private static func document(_ format: ExportWriter.Format, _ header: [String], _ rows: [[Value]]) -> String {
        var writer = ExportWriter(format: format, header: header)
        return writer.text(for: rows) + writer.ending()
    }
}
