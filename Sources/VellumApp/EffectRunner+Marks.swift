import VellumStore

/// Marks and the bulk actions: each bulk action is one write-queue block, so it
/// saves once (validated as a whole: all or nothing) and undoes in one step.
extension EffectRunner {
    func mark(_ change: MarkChange, waited: Bool = false) {
        guard let rows else { return }
        // Every row's ID: a list still indexing past its first page is waited for (off the
        // main thread), not indexed here.
        if !waited, change == .all || change == .invert, let source = rows as? ResultsRowSource {
            return source.whenIndexed { [weak self] in
                guard let self, self.rows === source else { return }
                mark(change, waited: true)
                redraw()
            }
        }
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

    /// Reads the marked rows' `key` as the view context has them (at most `bulkEditBaseLimit`
    /// rows, in one fetch; past that the question is about rows never shown, and the
    /// save checks nothing per row).
    func noteBulkEditBase(key: String) {
        bulkEditBase = nil
        guard let name = state.currentEntityName, state.marked.count <= Self.bulkEditBaseLimit else { return }
        let keys = state.marked.compactMap(\.primaryKey)
        var request = FetchRequest(entityName: name)
        request.predicate = .comparison(Comparison(.evaluatedObject, .in, .list(keys.map { .constant(.integer($0)) })))
        var values: [ObjectID: Value] = [:]
        for o in (try? context.fetch(request)) ?? [] {
            if let v = try? o.value(forKey: key) { values[o.objectID] = v }
        }
        bulkEditBase = (key, values)
    }

    static let bulkEditBaseLimit = 10_000

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
        let base = bulkEditBase?.key == key ? bulkEditBase?.values ?? [:] : [:]
        bulkEditBase = nil
        let displayKey = state.displayKey(of: name)
        send(.status("saving \(key) of \(what)…"))
        write("set \(key) of \(what)", success: "set \(key) of \(what)", { ctx in
            var outcome = BulkEditOutcome()
            for id in ids {
                let object: ManagedObject
                do { object = try ctx.existingObject(with: id) } catch StoreError.objectNotFound { outcome.gone += 1; continue }
                // Changed by another writer since the question showed it: theirs stays, and is reported.
                let stored = try object.value(forKey: key)
                if let seen = base[id], seen != stored {
                    outcome.leftAlone.append("\(DisplayName.of(object, key: displayKey)) (\(seen) → \(stored))")
                    continue
                }
                try object.setValue(value, forKey: key)
            }
            return outcome
        }, then: { [weak self] outcome in
            guard let self, outcome.gone > 0 || !outcome.leftAlone.isEmpty else { return }
            send(.status(outcome.report(key: key, set: ids.count - outcome.gone - outcome.leftAlone.count, of: name), error: !outcome.leftAlone.isEmpty))
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.store(.saveFailed("\(key) of \(what) not set (nothing written): \(describe(error))")))
        })
    }
}
