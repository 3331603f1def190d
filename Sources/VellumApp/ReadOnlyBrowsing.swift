import VellumStore

/// The browser over a read-only store: what the status line says on opening, and
/// the refusal of every action that would write.
enum ReadOnlyBrowsing {
    static func openedMessage(requested: Bool, snapshot: Bool) -> String {
        var text = requested ? "read-only (--read-only): browsing, no edits"
            : "read-only: the file or its folder is not writable; browsing, no edits"
        if snapshot { text += "; showing the file as it was when opened" }
        return text
    }

    static let refusal = "read-only: this store was opened read-only; edits are off (reopen without --read-only, with write permission)"

    /// Why a store Vellum cannot write as its program would (`PersistentStore.writeRefusal`) is
    /// read-only: the reason alone, cause first, as the status line shows only its beginning.
    static func refusal(writeRefusal: String) -> String {
        "read-only: \(writeRefusal)"
    }

    /// True for the effects that change the store (or open an editor to do so).
    static func writes(_ effect: Effect) -> Bool {
        switch effect {
        case .beginEdit, .commitEdit, .addRecord, .deleteRecord, .undo, .redo, .editDetailField,
             .resolveConflict, .pickerChoose, .saveForm, .duplicateRecord, .deleteMarked, .setMarked,
             .previewDeletion, .planTracking, .changeTracking, .duplicateValue, .activateRelationship(_, edit: true):
            return true
        default:
            return false
        }
    }
}

extension EffectRunner {
    /// True (and the status says why) when the store is read-only and `effect` would write.
    func refusesInReadOnlyMode(_ effect: Effect) -> Bool {
        if refusesForReadOnlyEntity(effect) { return true }
        guard container.store.isReadOnly, ReadOnlyBrowsing.writes(effect) else { return false }
        refuseEditInReadOnlyMode()
        return true
    }

    /// Leaves any editor, prompt or picker the reducer opened, and says why nothing happens.
    func refuseEditInReadOnlyMode() {
        send(.result(.backToBrowse))
        let reason = container.store.writeRefusal.map(ReadOnlyBrowsing.refusal(writeRefusal:)) ?? ReadOnlyBrowsing.refusal
        send(.status(reason, error: true))
    }
}
