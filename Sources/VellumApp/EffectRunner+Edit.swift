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
            save("edit \(target.key)", success: "saved \(target.key)" + note) { ctx in
                try ctx.existingObject(with: target.id).setValue(value, forKey: target.key)
            } onConflict: { [weak self] in
                _ = self?.checkConflict(mine: text, force: true)
            }
            if state.mode == .edit && state.editError == nil { finishEdit() }
        }
    }

    func finishEdit() {
        send(.result(.backToBrowse))
        editTarget = nil
        editSnapshot = nil
    }

    /// Compares the edited record with the value the editor started from.
    /// Returns true (and shows the prompt) if it changed or vanished underneath.
    @discardableResult
    func checkConflict(mine: String, force: Bool = false) -> Bool {
        guard let target = editTarget else { return false }
        let author = container.lastRemoteChange?.author
        let object = context.registeredObject(for: target.id)
        if object == nil || object?.isDeleted == true || (try? object?.fireFault()) == nil || object?.isFault == true {
            send(.result(.conflictFound(AppState.Conflict(key: target.key, mine: mine, theirs: nil, deleted: true, author: author))))
            redraw()
            return true
        }
        let current = (try? object!.value(forKey: target.key)) ?? .null
        if current != target.base || force {
            send(.result(.conflictFound(AppState.Conflict(key: target.key, mine: mine, theirs: Renderer.cellText(current),
                                                          deleted: false, author: author))))
            redraw()
            return true
        }
        return false
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
            save("re-add \(snapshot.entityName)", success: "re-added the \(snapshot.entityName) with your \(target.key)") { ctx in
                try ctx.restore(snapshot)
            }
            finishEdit()
            selectedID = target.id
            followSelection()
            return
        }
        // Theirs is now the base: save mine over it, knowingly.
        if let object = context.registeredObject(for: target.id) {
            editTarget = (target.id, target.key, (try? object.value(forKey: target.key)) ?? .null)
        }
        save("edit \(target.key)", success: "saved \(target.key) (kept mine)") { ctx in
            try ctx.existingObject(with: target.id).setValue(value, forKey: target.key)
        } onConflict: { [weak self] in
            _ = self?.checkConflict(mine: conflict.mine, force: true)
        }
        if state.mode == .conflict && state.conflict == conflict { finishEdit() }
    }

    func addRecord() {
        guard let name = state.currentEntityName else { return }
        var newID: ObjectID?
        save("add \(name)", success: "added a \(name)") { ctx in newID = try ctx.insert(name).objectID }
        if let id = newID {
            selectedID = container.store.permanentID(for: id) ?? id
            followSelection()
        }
    }

    func deleteRecord() {
        guard let object = currentObject() else { return }
        let id = object.objectID
        save("delete", success: "deleted") { ctx in try ctx.delete(ctx.existingObject(with: id)) }
    }

    /// One user action: mutate the view context in an undo group and save at once.
    /// On failure nothing stays behind (rollback, undo group dropped).
    func save(_ action: String, success: String, _ body: (ManagedObjectContext) throws -> Void,
                      onConflict: (() -> Void)? = nil) {
        writingLocally = true
        defer { writingLocally = false }
        undoStack.beginGroup(action)
        do {
            try body(context)
            undoStack.endGroup()
            _ = try context.save()
            send(.store(.saved(success)))
        } catch {
            undoStack.endGroup()
            context.rollback()
            undoStack.discardLastAction()
            // Only a changed or deleted record asks mine/theirs; a uniqueness conflict is a message.
            if case StoreError.conflicts(let cs) = error, cs.allSatisfy({ $0.kind == .version }), let onConflict {
                onConflict()
            } else {
                send(.store(.saveFailed(describe(error))))
            }
        }
        redraw()
    }

    func describe(_ error: Error) -> String {
        ErrorText.describe(error)
    }
}
