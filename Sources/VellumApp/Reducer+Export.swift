import VellumTerminal

extension Reducer {
    /// `:export` to an existing file asked "replace?": only `y` replaces it;
    /// `n`, Esc or any other key keeps the old file.
    static func confirmReplace(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        s.mode = .browse
        guard let pending = s.pendingExport else { return [] }
        s.pendingExport = nil
        if s.keyMap.modeAction(for: key, in: .question) == .yes {
            return [.export(format: pending.format, path: pending.path, replacing: true)]
        }
        s.setStatus("export cancelled; \(pending.path) left unchanged")
        return []
    }

    /// `:track`/`:track off` asked: only `y` changes the file; any other key leaves it as it is.
    static func confirmTracking(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        s.mode = .browse
        guard let pending = s.pendingTracking else { return [] }
        s.pendingTracking = nil
        if s.keyMap.modeAction(for: key, in: .question) == .yes { return [.changeTracking(pending.change)] }
        s.setStatus("\(pending.fileName) left unchanged (nothing was \(pending.isTracking ? "added" : "removed"))")
        return []
    }
}
