import VellumTerminal

extension Reducer {
    /// While "Terminal too small" is shown the user cannot see what a key would do,
    /// so no key reaches an editor or an action; only ^C still quits.
    static func ignore(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        if key == .ctrl("c") { return [.quit] }
        s.ignoredKeys += 1
        return []
    }
}
