import VellumStore

extension EffectRunner {
    /// `:id ID`: the record's row in the open list (a jump `[` walks back), or its
    /// entity opened unfiltered on it (Bksp goes back to the list left).
    func jumpToRecord(_ text: String, waited: Bool = false) {
        guard let id = recordID(text) else {
            send(.status("'\(text)' is not a record ID here: give its URI (as vellum query prints it) or p12 for a \(entity?.name ?? "record") key", error: true))
            return
        }
        let name = "\(id.entityName) " + (id.primaryKey.map { "p\($0)" } ?? text)
        // Its row among every row: a list still indexing past its first page is waited for
        // (off the main thread), not indexed here.
        if !waited, id.entityName == entity?.name, let source = rows as? ResultsRowSource, source.index(of: id) == nil {
            return source.whenIndexed { [weak self] in
                guard let self, self.rows === source else { return }
                jumpToRecord(text, waited: true)
                redraw()
            }
        }
        if id.entityName == entity?.name, let source = rows as? ResultsRowSource, let row = try? source.indexAmongAll(of: id) {
            send(.result(.jumpedToRow(row)))
            syncSelection()
            send(.status(name))
            return
        }
        guard (try? context.existingObject(with: id)) != nil, let index = state.entityNames.firstIndex(of: id.entityName) else {
            send(.status("no \(name) in this store", error: true))
            return
        }
        send(.result(.leftList(currentPlace())))
        show(index, base: nil, title: nil, select: id)
        send(.status(name + (id.entityName == entity?.name ? " (the filter left it out: shown unfiltered; Bksp goes back)" : "")))
    }

    /// A URI of this store, or `p12`/`12`: key 12 of the open entity.
    private func recordID(_ text: String) -> ObjectID? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("://") { return container.store.objectID(uri: trimmed) }
        guard let entity, let key = Int64(trimmed.hasPrefix("p") ? String(trimmed.dropFirst()) : trimmed), key > 0 else { return nil }
        return container.store.objectID(entity: entity.name, primaryKey: key)
    }
}
