import Foundation

/// The `tui-*` figures of issue #17 (filter, find, summary, group, resident memory
/// after them and an export), measured in the session `TUIWorkload.measure` opened.
/// Each is timed from just before the key that starts it (for a typed line: once the
/// text shows in the line, so typing is not counted) to the first capture showing
/// what only the finished operation draws. See docs/benchmarks.md.
extension TUIWorkload {
    /// `f` find of a name that only the last row (in the default name order) has:
    /// `record number 999999`, row 1,000,000. 3 runs, `g` back to row 1 between them.
    static let findText = "number 999999"
    /// 11 rows: `record number 12345` and `… 123450` to `… 123459`.
    static let filterText = "name CONTAINS[c] 'NUMBER 12345'"
    static let filterCount = 11
    static let groupKey = "category"
    /// Column 0, where the cursor is after the sort (`key`, integer64).
    static let summaryColumn = "key"

    /// Types `line` after `opener` (`/`, `f`, `:`; the line emptied with ^U), waits
    /// until it shows, then times Enter until `done` holds on screen.
    static func typedLine(_ t: BenchTmux, _ opener: String, _ line: String, timeout: Double = 120,
                          _ what: String, until done: (String) -> Bool) throws -> Double {
        t.keys(opener); t.keys("C-u")
        if !line.isEmpty {
            t.literal(line)
            _ = try t.waitMillis(since: Clocks.monotonicNanos(), timeout: 10, "the typed line \(line)") { $0.contains(line) }
        }
        let start = Clocks.monotonicNanos()
        t.keys("Enter")
        return try t.waitMillis(since: start, timeout: timeout, what, until: done)
    }

    /// Times `key` until `done` holds on screen.
    static func timedKey(_ t: BenchTmux, _ key: String, _ what: String, until done: (String) -> Bool) throws -> Double {
        let start = Clocks.monotonicNanos()
        t.keys(key)
        return try t.waitMillis(since: start, timeout: 120, what, until: done)
    }

    /// The runs' times and the pane process's VmRSS after them (which step the memory grows at).
    static func logRuns(_ t: BenchTmux, _ name: String, _ ms: [Double]) {
        let rss = t.panePID.flatMap { vmKB("VmRSS", pid: $0) }.map { String(format: "; VmRSS %.1f MB", Double($0) / 1024) } ?? ""
        log("\(name) ms: " + ms.map { String(format: "%.1f", $0) }.joined(separator: " ") + rss)
    }

    /// tui-find-1m, in the default name order (before the sort), cursor anywhere above the last row.
    static func measureFind(_ t: BenchTmux, into f: inout Figures) throws {
        let last = "row \(rowCount)/\(rowCount)"
        for _ in 0..<3 {
            _ = try timedKey(t, "g", "row 1") { $0.contains("row 1/\(rowCount) ") }
            f.find.append(try typedLine(t, "f", findText, timeout: 60, "the find landing on \(last)") {
                $0.contains("\(findText): match 1 of 1") && $0.contains(last) && $0.contains("record \(findText)")
            })
        }
        logRuns(t, "find", f.find)
        // The find put the cursor on the found `name` cell; tui-sort-1m sorts column 0.
        for _ in 0..<3 { t.keys("h") }
    }

    /// After the sort (`sort: key ▲` stays on): filter, group, summary (3 runs each, undone
    /// between runs), one export of all rows to `exportPath`, then VmRSS of `pid`.
    static func measureOperations(_ t: BenchTmux, pid: Int32, exportPath: String, into f: inout Figures) throws {
        // The cursor stays on the selected row (`row K/11`, `row K/1000000`) through the filter and its clearing.
        let all = "/\(rowCount) │"
        for _ in 0..<3 {
            f.filter.append(try typedLine(t, "/", filterText, "the filtered first screen") {
                $0.contains("filter: \(filterText)") && $0.contains("/\(filterCount) │")
            })
            _ = try typedLine(t, "/", "", "the filter cleared") { $0.contains(all) && !$0.contains("filter: ") }
        }
        logRuns(t, "filter", f.filter)

        for _ in 0..<3 {
            f.group.append(try typedLine(t, ":", "group \(groupKey)", "grouped by \(groupKey)") { $0.contains("grouped by \(groupKey)") })
            _ = try typedLine(t, ":", "group", "ungrouped") { $0.contains("ungrouped") }
        }
        logRuns(t, "group", f.group)

        let title = "Summary of \(summaryColumn) ("
        for _ in 0..<3 {
            f.summary.append(try timedKey(t, "F", "the summary box") { $0.contains(title) })
            t.keys("Escape")  // on its own: ESC followed by a key would read as Alt-key
            _ = try t.waitMillis(since: Clocks.monotonicNanos(), timeout: 10, "the summary closed") { !$0.contains(title) }
        }
        logRuns(t, "summary", f.summary)

        let exportMs = try typedLine(t, ":", "export csv \(exportPath)", "the export") { $0.contains("exported \(rowCount) rows") }
        defer { try? FileManager.default.removeItem(atPath: exportPath) }
        let size = (try? FileManager.default.attributesOfItem(atPath: exportPath)[.size] as? Int) ?? 0
        log(String(format: "export csv of %d rows: %.0f ms, %.1f MB", rowCount, exportMs, Double(size) / 1_048_576))

        // tui-rss-after-ops-1m: as tui-rss-1m, ~1 s after the last operation.
        Thread.sleep(forTimeInterval: 1.0)
        guard let rss = vmKB("VmRSS", pid: pid) else { throw BenchError("tui: cannot read /proc/\(pid)/status") }
        f.rssAfterOpsMB = Double(rss) / 1024
        log(String(format: "after the operations: VmRSS %.1f MB, VmHWM %.1f MB", f.rssAfterOpsMB, Double(vmKB("VmHWM", pid: pid) ?? 0) / 1024))
    }
}
