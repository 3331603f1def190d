import VellumStore

/// Copying values: the text goes to the register (state) and, through the loop,
/// to the terminal's clipboard.
extension EffectRunner {
    func yank(_ yank: Yank) {
        let keys = state.columnNames
        let objects: [ManagedObject]
        if yank.scope == .rows, !state.marked.isEmpty {
            // In list order where listed; marked records outside the list follow.
            let listed = state.marked.compactMap { id in rows?.index(of: id).map { ($0, id) } }.sorted { $0.0 < $1.0 }.map(\.1)
            let others = state.marked.subtracting(listed).sorted { $0.uriString < $1.uriString }
            objects = (listed + others).compactMap { try? context.existingObject(with: $0) }
        } else {
            objects = currentObject().map { [$0] } ?? []
        }
        guard !objects.isEmpty else { send(.status("nothing to yank", error: true)); return }
        let text: String, what: String
        do {
            if yank.scope == .cell {
                guard state.columnNames.indices.contains(state.cursorColumn) else { return }
                let key = state.columnNames[state.cursorColumn]
                let value = try tableValue(objects[0], key)
                text = yank.format == .json ? ExportText.jsonValue(value) : ExportText.plain(value)
                what = key
            } else {
                let values = try objects.map { o in try keys.map { try tableValue(o, $0) } }
                text = YankText.rows(keys: keys, values: values, format: yank.format)
                what = Reducer.countText(objects.count, state.currentEntityName ?? "record").replacingOccurrences(of: " records", with: " rows")
                    + " as \(yank.format.rawValue.uppercased())"
            }
        } catch {
            send(.status("yank: \(describe(error))", error: true))
            return
        }
        terminalRequests.append(.copyToClipboard(text))
        send(.result(.yanked(text: text, what: what)))
    }

    /// What property `key` holds for `object`, as the table shows it: an attribute's
    /// value, a to-one target's display name, a to-many's count.
    func tableValue(_ object: ManagedObject, _ key: String) throws -> Value {
        guard let r = object.entity.relationship(named: key) else { return try object.value(forKey: key) }
        if r.isToMany { return .integer(Int64(try Self.relatedCount(object, r))) }
        return try state.targetName(of: object, key).map(Value.string) ?? .null
    }
}
