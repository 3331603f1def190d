import VellumStore

/// Marks and the bulk actions: each bulk action is one write-queue block, so it
/// saves once (validated as a whole: all or nothing) and undoes in one step.
extension EffectRunner {
    func mark(_ change: MarkChange) {
        guard let rows else { return }
        var marked = state.marked
        switch change {
        case .toggle(let row):
            if let id = rows.id(at: row), marked.remove(id) == nil { marked.insert(id) }
        case .range(let range):
            for row in range { if let id = rows.id(at: row) { marked.insert(id) } }
        case .all:
            marked.formUnion(rows.rowIDs)
        case .invert:
            marked.formSymmetricDifference(rows.rowIDs)
        }
        send(.result(.marksChanged(marked)))
        send(.status(marked.isEmpty ? "no rows marked" : "\(marked.count) marked"))
        // The reducer may have moved the cursor (`t` goes on to the next row): select that record.
        syncSelection()
    }

    func deleteMarked() {
        let ids = Array(state.marked), entity = state.currentEntityName ?? "record"
        let what = Reducer.countText(ids.count, entity)
        send(.status("deleting \(what)…"))
        write("delete \(what)", success: "deleted \(what)", { ctx in
            // Records another writer deleted meanwhile are already gone: counted, not an error.
            var gone = 0
            for id in ids {
                do { try ctx.delete(ctx.existingObject(with: id)) } catch StoreError.objectNotFound { gone += 1 }
            }
            return gone
        }, then: { [weak self] gone in
            guard let self else { return }
            send(.result(.marksChanged([])))
            if gone > 0 { send(.status("deleted \(Reducer.countText(ids.count - gone, entity)); \(gone) already gone")) }
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.store(.saveFailed("nothing deleted: \(describe(error))")))
        })
    }

    func setMarked(key: String, text: String) {
        guard let name = state.currentEntityName, let attribute = container.model.entity(named: name)?.attribute(named: key) else { return }
        guard FieldText.isEditable(attribute.type) else {
            send(.status("\(attribute.type.rawValue) attributes cannot be edited here", error: true))
            return
        }
        let value: Value
        switch FieldText.parse(text, for: attribute) {
        case .failure(let error): send(.status("set \(key): \(error.reason); nothing written", error: true)); return
        case .success(let v): value = v
        }
        let ids = Array(state.marked)
        let what = Reducer.countText(ids.count, name)
        send(.status("saving \(key) of \(what)…"))
        write("set \(key) of \(what)", success: "set \(key) of \(what)", { ctx in
            var gone = 0
            for id in ids {
                do { try ctx.existingObject(with: id).setValue(value, forKey: key) } catch StoreError.objectNotFound { gone += 1 }
            }
            return gone
        }, then: { [weak self] gone in
            guard let self, gone > 0 else { return }
            send(.status("set \(key) of \(Reducer.countText(ids.count - gone, name)); \(gone) already gone"))
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.store(.saveFailed("\(key) of \(what) not set (nothing written): \(describe(error))")))
        })
    }
}
