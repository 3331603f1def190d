import VellumStore
import VellumTerminal

/// `:track` or `:track off` waiting for the user's yes (mode `.confirmTracking`): exactly
/// the names that will be added to (or removed from) the file, as `vellum track FILE`
/// and `vellum untrack FILE` print them, shown in a box; nothing changes without `y`.
public struct TrackingQuestion: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        /// Install this plan (`HistoryTracking.track`).
        case track(TrackingPlan)
        /// Remove every name tracking added (`HistoryTracking.untrack`): these.
        case untrack(names: [String])
    }

    public var change: Change
    /// The file's name, as the question says it.
    public var fileName: String
    /// What the box lists, one item a line (wrapped when drawn).
    public var lines: [String]
    /// How many names are added or removed.
    public var count: Int

    /// The question for installing `plan`: the history tables and index, the three triggers
    /// on each table (by their names' one pattern), and the tables left out with the reason.
    public init(tracking plan: TrackingPlan, fileName: String) {
        change = .track(plan)
        self.fileName = fileName
        count = plan.addedNames.count
        var lines: [String] = []
        if !plan.historyTables.isEmpty { lines.append("tables: " + plan.historyTables.joined(separator: ", ")) }
        if !plan.historyIndexes.isEmpty { lines.append("index: " + plan.historyIndexes.joined(separator: ", ")) }
        lines += Self.triggerLines(tables: plan.tables.map(\.table), names: plan.triggers)
        lines += plan.skipped.map { "not tracked: \($0.table) (\($0.reason))" }
        self.lines = lines
    }

    /// The question for removing `names` (`HistoryTracking.trackingObjects`), tracking's
    /// triggers on `trackedTables` among them.
    public init(untracking names: [String], trackedTables: [String], fileName: String) {
        change = .untrack(names: names)
        self.fileName = fileName
        count = names.count
        let triggers = Set(trackedTables.flatMap(HistoryTracking.triggerNames(for:)))
        let others = names.filter { !triggers.contains($0) }
        lines = (others.isEmpty ? [] : ["tables and index: " + others.joined(separator: ", ")])
            + Self.triggerLines(tables: trackedTables, names: names.filter(triggers.contains))
    }

    /// `triggers _vellum_history_T_insert, …_T_update, …_T_delete for T = each of: A, B…` for the tables
    /// that have all three in `names`; any other trigger by its full name.
    static func triggerLines(tables: [String], names: [String]) -> [String] {
        let given = Set(names)
        let whole = tables.filter { HistoryTracking.triggerNames(for: $0).allSatisfy(given.contains) }
        let covered = Set(whole.flatMap(HistoryTracking.triggerNames(for:)))
        var lines: [String] = []
        if !whole.isEmpty {
            let pattern = HistoryTracking.triggerNames(for: "T").joined(separator: ", ")
            lines.append("triggers \(pattern) for T = each of: " + whole.joined(separator: ", "))
        }
        let rest = names.filter { !covered.contains($0) }
        if !rest.isEmpty { lines.append("triggers: " + rest.joined(separator: ", ")) }
        return lines
    }

    var isTracking: Bool { if case .track = change { return true } else { return false } }

    /// The bottom line's question.
    func prompt(_ keys: KeyMap) -> String {
        let verb = if case .track = change { "Add these \(count) names to" } else { "Remove these \(count) names from" }
        return "\(verb) \(fileName)? \(ModeHints.yes(keys)), any other key = no"
    }

    /// The box's title.
    var title: String {
        if case .track = change { return "Track \(fileName): record every writer's changes, object by object" }
        return "Untrack \(fileName): remove Vellum's history from the file"
    }

    /// The box's text lines at `size`, wrapped to its width, and the box; lines past the
    /// screen's height end with `…` (the file is not changed while the box shows).
    func overlay(size: TerminalSize) -> (box: Rect, lines: [String]) {
        let width = max(20, min(size.columns - 2, 100))
        var lines = lines.flatMap { line in
            MessagesOverlay.wrap(line, width: width - 6).enumerated().map { i, part in (i == 0 ? "" : "  ") + part }
        }
        let available = max(1, size.rows - 4 - 4)
        if lines.count > available { lines = Array(lines.prefix(available - 1)) + ["…"] }
        let height = lines.count + 4
        let box = Rect(row: max(0, (size.rows - 2 - height) / 2), col: max(0, (size.columns - width) / 2), width: min(width, size.columns), height: height)
        return (box, lines)
    }
}
