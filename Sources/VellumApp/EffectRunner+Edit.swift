import Foundation
import VellumStore

/// Editing a field, conflicts with other writers, adding and deleting records.
extension EffectRunner {
    func beginEdit(key: String?) {
        if container.store.isReadOnly { refuseEditInReadOnlyMode(); return }
        guard let object = currentObject(), let key, let attribute = entity?.attribute(named: key) else { return }
        guard FieldText.isEditable(attribute.type) else {
            send(.status("\(attribute.type.rawValue) attributes cannot be edited here", error: true))
            return
        }
        let value = (try? object.value(forKey: attribute.name)) ?? .null
        editTarget = (object.objectID, key, value)
        editSnapshot = try? context.snapshot(of: object)
        send(.result(.editBegan(text: FieldText.editText(value, type: attribute.type), isOptional: attribute.isOptional,
                                hint: FieldText.hint(for: attribute))))
    }

    func editedAttribute() -> AttributeDescription? {
        guard let target = editTarget else { return nil }
        return container.model.entity(named: target.id.entityName)?.attribute(named: target.key)
    }

    func commitEdit(_ text: String) {
        guard let target = editTarget, let attribute = editedAttribute() else { send(.result(.backToBrowse)); return }
        switch FieldText.parse(text, for: attribute) {
        case .failure(let error):
            send(.result(.editRefused(error.reason)))      // stay in the editor; nothing is written
        case .success(let value):
            // Someone else changed or deleted it while the editor was open: ask.
            if checkConflict(mine: text) { return }
            let note = ValueParser.storedFormNote(text, value).map { " (\($0))" } ?? ""
            writeField(target, value, typed: text, success: "saved \(target.key)" + note)
        }
    }

    /// Closes the editor and writes `value` on the write queue, unless the stored value
    /// is no longer `target.base` (then the mine/theirs prompt asks, with `typed` as mine).
    /// On any other failure the editor opens again with the typed text and the reason.
    func writeField(_ target: (id: ObjectID, key: String, base: Value), _ value: Value, typed: String, success: String) {
        send(.result(.backToBrowse))
        send(.status("saving \(target.key)…"))
        write("edit \(target.key)", success: success, { ctx in
            let object: ManagedObject
            do { object = try ctx.existingObject(with: target.id) } catch StoreError.objectNotFound {
                throw ChangedUnderneath(theirs: nil)
            }
            let stored = try object.value(forKey: target.key)
            guard stored == target.base else { throw ChangedUnderneath(theirs: stored) }
            try object.setValue(value, forKey: target.key)
        }, then: { [weak self] _ in
            guard let self, editTarget?.id == target.id, editTarget?.key == target.key, state.mode != .edit else { return }
            editTarget = nil
            editSnapshot = nil
        }, failed: { [weak self] error in
            self?.editNotWritten(target, typed: typed, error)
        })
    }

    /// The typed text is never lost: a conflict prompts mine/theirs, anything else
    /// reopens the editor with it (or, if the user is busy elsewhere, the status keeps it).
    private func editNotWritten(_ target: (id: ObjectID, key: String, base: Value), typed: String, _ error: Error) {
        let idle = state.mode == .browse
        if idle { editTarget = target }
        if idle, isChangedUnderneath(error) {
            // Found by the block, or by the save's version check (a writer between the block's read and its save).
            var theirs: Value?
            if let changed = error as? ChangedUnderneath { theirs = changed.theirs }
            else if case StoreError.conflicts(let cs) = error { theirs = cs.first?.persistedSnapshot?[target.key] }
            theirsValue = theirs
            send(.result(.conflictFound(AppState.Conflict(key: target.key, mine: typed, theirs: theirs.map(Renderer.cellText),
                                                          deleted: theirs == nil, author: container.lastRemoteChange?.author))))
        } else if idle {
            send(.result(.editReopened(text: typed, reason: describe(error))))
        } else {
            send(.store(.saveFailed("\(target.key) not saved (\(typed)): \(describe(error))")))
        }
    }

    func finishEdit() {
        send(.result(.backToBrowse))
        editTarget = nil
        editSnapshot = nil
    }

    /// What the edited field holds now, if another writer changed it since the editor
    /// opened (`theirs` nil: the record is gone); nil when it is unchanged.
    private func changeUnderneath() -> (key: String, theirs: Value?)? {
        guard let target = editTarget else { return nil }
        let object = context.registeredObject(for: target.id)
        if object == nil || object?.isDeleted == true || (try? object?.fireFault()) == nil || object?.isFault == true {
            return (target.key, nil)
        }
        let current = (try? object!.value(forKey: target.key)) ?? .null
        return current != target.base ? (target.key, current) : nil
    }

    /// Compares the edited record with the value the editor started from.
    /// Returns true (and shows the prompt) if it changed or vanished underneath.
    @discardableResult
    func checkConflict(mine: String) -> Bool {
        guard let (key, theirs) = changeUnderneath() else { return false }
        theirsValue = theirs
        send(.result(.conflictFound(AppState.Conflict(key: key, mine: mine, theirs: theirs.map(Renderer.cellText),
                                                      deleted: theirs == nil, author: container.lastRemoteChange?.author))))
        redraw()
        return true
    }

    /// Another writer's change reached the field being edited: the editor says so and
    /// stays open (keys typed meanwhile are text, never an answer) and its hint says
    /// that Enter asks mine/theirs.
    func noteChangeUnderneath() {
        guard let (key, theirs) = changeUnderneath() else { return }
        let who = container.lastRemoteChange?.author.map { "\($0)" } ?? "another writer"
        let notice = theirs.map { "\(who) set \(key) to \(Renderer.cellText($0))" } ?? "\(who) deleted this record"
        send(.result(.editTargetChanged(notice)))
        redraw()
    }

    func resolveConflict(keepMine: Bool) {
        if let replay = state.conflict?.replay { resolveReplayConflict(keepMine: keepMine, replay); return }
        guard let target = editTarget, let conflict = state.conflict else { finishEdit(); return }
        guard keepMine else {
            finishEdit()
            send(.status("kept their \(target.key)"))
            return
        }
        guard let attribute = editedAttribute() else { finishEdit(); return }
        let value: Value
        switch FieldText.parse(conflict.mine, for: attribute) {
        case .success(let v): value = v
        case .failure(let e): send(.result(.editRefused(e.reason))); return
        }
        if conflict.deleted {
            // Re-add the record as last seen (same ID, every value and relationship), with the typed value.
            var snapshot = editSnapshot ?? ObjectSnapshot(objectID: target.id, entityName: target.id.entityName, values: [:])
            snapshot.values[target.key] = value
            finishEdit()
            selectedID = target.id
            write("re-add \(snapshot.entityName)", success: "re-added the \(snapshot.entityName) with your \(target.key)", { [snapshot] ctx in
                _ = try ctx.restore(snapshot)
            }, failed: { [weak self] error in
                self?.send(.store(.saveFailed("\(target.key) not saved (\(conflict.mine)): \(self?.describe(error) ?? "")")))
            })
            return
        }
        // Theirs is now the base: save mine over it, knowingly.
        writeField((target.id, target.key, theirsValue ?? .null), value, typed: conflict.mine, success: "saved \(target.key) (kept mine)")
    }

    func deleteRecord() {
        guard let object = currentObject() else { return }
        let id = object.objectID
        write("delete", success: "deleted", { ctx in try ctx.delete(ctx.existingObject(with: id)) }, failed: { [weak self] error in
            self?.send(.store(.saveFailed(self?.describe(error) ?? "")))
        })
    }

    func describe(_ error: Error) -> String {
        ErrorText.describe(error)
    }
}
