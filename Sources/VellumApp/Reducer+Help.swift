import VellumTerminal

extension Reducer {
    /// The `?` help: the browse keys that move the cursor scroll it (so the
    /// help lists its own keys), the wheel scrolls it, and every other key or
    /// click (Esc, q, ? among them) closes it, as any key did before it scrolled.
    static func help(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        let overlay = HelpOverlay(size: s.layout?.size ?? HelpOverlay.fallbackSize, keyMap: s.keyMap)
        switch (key, s.keyMap.action(for: key)) {
        case (.mouse(let event), _) where event.kind == .wheelDown: s.helpScroll += 3
        case (.mouse(let event), _) where event.kind == .wheelUp: s.helpScroll -= 3
        case (_, .moveDown?): s.helpScroll += 1
        case (_, .moveUp?): s.helpScroll -= 1
        case (_, .pageDown?): s.helpScroll += overlay.pageSize
        case (_, .pageUp?): s.helpScroll -= overlay.pageSize
        case (_, .top?): s.helpScroll = 0
        case (_, .bottom?): s.helpScroll = overlay.maxScroll
        default:
            s.mode = .browse
            s.helpScroll = 0
        }
        s.helpScroll = overlay.clamped(s.helpScroll)
        return []
    }
}
