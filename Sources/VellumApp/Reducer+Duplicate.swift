import VellumTerminal

/// `D` on a record with unique attributes: the copy cannot keep their values, so the
/// browser asks for each one in turn (pre-filled with the original's, to change).
public struct DuplicatePrompt: Sendable, Equatable {
    public var entity: String
    /// The unique attribute asked about now.
    public var key: String
    /// Its place among the attributes asked (`1 of 2`).
    public var position: Int
    public var count: Int
    /// What the line opens with: the original's value, or what was typed before a refusal.
    public var text: String
    /// Why the last value was refused (shown under the line), if it was.
    public var reason: String? = nil

    /// The prompt before the line: `copy's name (unique, 1 of 2): `.
    public var label: String {
        "copy's \(key) (unique" + (count > 1 ? ", \(position) of \(count)" : "") + "): "
    }
}

extension Reducer {
    static func duplicate(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .line) {
        case .lineCancel?:
            s.mode = .browse
            s.promptError = nil
            s.duplicatePrompt = nil
            s.setStatus("duplicate cancelled; nothing written")
            return []
        case .lineConfirm?:
            s.promptError = nil
            return [.duplicateValue(s.editor.text)]
        case .linePaste?:
            pasteRegister(&s)
        default:
            s.editor.handle(key)
            s.promptError = nil
        }
        return []
    }
}
