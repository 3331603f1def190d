import VellumStore

extension EffectRunner {
    /// True (and the status says why) when `effect` would write rows of an entity
    /// that cannot be written (another program's view). Undo and redo are left to
    /// the store: what they replay may belong to other entities.
    func refusesForReadOnlyEntity(_ effect: Effect) -> Bool {
        switch effect {
        case .undo, .redo, .planTracking, .changeTracking: return false   // not rows of the shown entity
        default: break
        }
        guard ReadOnlyBrowsing.writes(effect), let reason = currentEntityWriteRefusal else { return false }
        send(.result(.backToBrowse))
        send(.status(reason, error: true))
        return true
    }

    /// Why rows of the shown entity cannot be written, or nil.
    var currentEntityWriteRefusal: String? {
        let layout = container.store.layout
        guard let table = state.currentEntityName.flatMap(layout.table(of:)) else { return nil }
        return layout.readOnlyReason(table: table)
    }
}
