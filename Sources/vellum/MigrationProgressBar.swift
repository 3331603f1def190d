import Foundation
import VellumStore

/// Rows copied, rows per second and time left, on stderr, at most ten times a second;
/// only for migrations that copy many rows.
final class MigrationProgressBar: @unchecked Sendable {
    // Unchecked: called only from the migrating thread (StoreMigrator's progress callback).
    private let console: Console
    private let start = Date()
    private var lastShown = Date.distantPast
    private var shown = false
    static let minimumRows = 100_000

    init(console: Console) { self.console = console }

    func show(_ p: MigrationProgress) {
        guard p.rowsTotal >= Self.minimumRows, Date().timeIntervalSince(lastShown) >= 0.1 || p.rowsDone == p.rowsTotal else { return }
        lastShown = Date()
        console.err("\r" + Self.line(p, elapsed: Date().timeIntervalSince(start)) + " ")
        shown = true
    }

    /// `[#####---…] done/total rows  N rows/s  ETA Ns`: the bar 30 wide, the rate so far.
    static func line(_ p: MigrationProgress, elapsed: TimeInterval) -> String {
        let elapsed = max(0.001, elapsed)
        let rate = Double(p.rowsDone) / elapsed
        let left = rate > 0 ? Double(p.rowsTotal - p.rowsDone) / rate : 0
        let width = 30
        let filled = p.rowsTotal == 0 ? width : width * p.rowsDone / p.rowsTotal
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(p.rowsDone)/\(p.rowsTotal) rows  \(Int(rate)) rows/s  ETA \(Int(left.rounded()))s"
    }

    func finish() { if shown { console.err("\n") } }
}
