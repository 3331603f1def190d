extension Reducer {
    /// `:yank [cell|rows] [text|tsv|json]` (rows as TSV when not said).
    @Sendable static func yank(_ s: inout AppState, _ argument: String) -> [Effect] {
        var yank = Yank(scope: .rows, format: .tsv)
        var formatSaid = false
        for word in argument.lowercased().split(separator: " ").map(String.init) {
            if let scope = Yank.Scope(rawValue: word) { yank.scope = scope }
            else if let format = Yank.Format(rawValue: word) { yank.format = format; formatSaid = true }
            else { s.setStatus("yank: unknown word '\(word)' (cell, rows, text, tsv or json)", error: true); return [] }
        }
        if yank.scope == .cell, !formatSaid { yank.format = .text }
        guard s.rowCount > 0 else { s.setStatus("nothing to yank", error: true); return [] }
        return [.yank(yank)]
    }
}
