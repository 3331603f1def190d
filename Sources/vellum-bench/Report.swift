import Foundation
import VellumStore

/// Prints results: an aligned table (default) or JSON lines (`--json`).
enum Report {
    static let header = ["name", "value", "unit", "baseline", "ratio"]

    static func row(_ r: Result) -> [String] {
        [r.name, format(r.measurement.value), r.unit,
         r.measurement.baseline.map(format) ?? "-", r.measurement.ratio.map { String(format: $0 < 0.1 ? "%.4fx" : "%.2fx", $0) } ?? "-"]
    }

    static func format(_ v: Double) -> String { String(format: v >= 100 ? "%.0f" : v >= 1 ? "%.1f" : "%.3f", v) }

    static func line(_ cells: [String], widths: [Int]) -> String {
        var out = ""
        for (i, cell) in cells.enumerated() {
            // Name and unit left-aligned, numbers right-aligned.
            let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
            out += (i == 0 || i == 2) ? cell + pad : pad + cell
            if i < cells.count - 1 { out += "  " }
        }
        while out.hasSuffix(" ") { out.removeLast() }
        return out
    }

    /// Skipped benchmarks get a line of their own under the table.
    static func table(_ results: [Result]) -> String {
        let rows = results.filter { $0.skipped == nil }.map(row)
        var widths = header.map(\.count)
        for r in rows { for (i, c) in r.enumerated() { widths[i] = max(widths[i], c.count) } }
        var out = rows.isEmpty ? "" : line(header, widths: widths) + "\n"
        for r in rows { out += line(r, widths: widths) + "\n" }
        for r in results { if let reason = r.skipped { out += "\(r.name)  skipped: \(reason)\n" } }
        return out
    }

    /// One JSON object: {"name","unit","value","baseline","ratio"}; baseline/ratio null when absent;
    /// {"name","unit","skipped"} for a benchmark that did not run.
    static func jsonLine(_ r: Result) -> String {
        func number(_ d: Double?) -> String {
            guard let d, d.isFinite else { return "null" }
            return String(format: "%.3f", d)
        }
        let string = ExportText.jsonString
        if let reason = r.skipped { return "{\"name\":\(string(r.name)),\"unit\":\(string(r.unit)),\"skipped\":\(string(reason))}" }
        return "{\"name\":\(string(r.name)),\"unit\":\(string(r.unit)),\"value\":\(number(r.measurement.value)),"
            + "\"baseline\":\(number(r.measurement.baseline)),\"ratio\":\(number(r.measurement.ratio))}"
    }
}
