import VellumTerminal

extension Reducer {
    /// `:export` to an existing file asked "replace?": only `y` replaces it;
    /// `n`, Esc or any other key keeps the old file.
    static func confirmReplace(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        s.mode = .browse
        guard let pending = s.pendingExport else { return [] }
        s.pendingExport = nil
        if key == .char("y") || key == .char("Y") {
            return [.export(format: pending.format, path: pending.path, replacing: true)]
        }
        s.setStatus("export cancelled; \(pending.path) left unchanged")
        return []
    }
}
