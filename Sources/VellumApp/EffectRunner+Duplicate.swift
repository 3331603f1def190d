import VellumStore

/// `D` while it asks: the record copied, and the values typed so far for its unique attributes.
struct PendingDuplicate {
    var entity: String
    var values: [(key: String, value: Value)]
    /// To-one relationships and their targets (nil: none), set on the copy too.
    var toOnes: [(key: String, target: ObjectID?)]
    /// The unique attributes to ask about, in model order, and which is asked now.
    var asks: [String]
    var at = 0
    var typed: [String: String] = [:]
}

/// `D`: a copy of the selected record — its attribute values and to-one
/// relationships (to-many members stay with the original: a product's images are
/// its own) — saved as one write. The values of unique attributes cannot be
/// copied, so the line asks for each first; Esc leaves nothing written.
extension EffectRunner {
    func duplicateRecord() {
        guard let object = currentObject(), let entity = container.model.entity(named: object.objectID.entityName) else { return }
        let attributes = entity.attributes.filter { !$0.isTransient }
        var copy: PendingDuplicate
        do {
            copy = PendingDuplicate(entity: entity.name,
                                    values: try attributes.map { ($0.name, try object.value(forKey: $0.name)) },
                                    toOnes: try entity.relationships.filter { !$0.isToMany }.map { ($0.name, try object.toOne($0.name)?.objectID) },
                                    asks: attributes.filter { a in entity.uniquenessConstraints.contains { $0.contains(a.name) } }.map(\.name))
        } catch {
            send(.status("duplicate: \(describe(error))", error: true))
            return
        }
        for (key, value) in copy.values where copy.asks.contains(key) {
            copy.typed[key] = FieldText.editText(value, type: entity.attribute(named: key)?.type ?? .string)
        }
        pendingDuplicate = copy
        if copy.asks.isEmpty { writeDuplicate(copy) } else { ask(copy) }
    }

    private func ask(_ copy: PendingDuplicate, reason: String? = nil) {
        let key = copy.asks[copy.at]
        send(.result(.duplicateAsks(DuplicatePrompt(entity: copy.entity, key: key, position: copy.at + 1, count: copy.asks.count,
                                                    text: copy.typed[key] ?? "", reason: reason))))
    }

    /// The value typed for the attribute asked about: parsed as the editor parses it
    /// (a bad one keeps the line open with the reason), then the next one, then the write.
    func duplicateValue(_ text: String) {
        guard var copy = pendingDuplicate, copy.asks.indices.contains(copy.at),
              let attribute = container.model.entity(named: copy.entity)?.attribute(named: copy.asks[copy.at]) else { return }
        copy.typed[attribute.name] = text
        if case .failure(let error) = FieldText.parse(text, for: attribute) {
            pendingDuplicate = copy
            ask(copy, reason: "\(attribute.name): \(error.reason)")
            return
        }
        copy.at += 1
        pendingDuplicate = copy
        if copy.at < copy.asks.count { ask(copy); return }
        send(.result(.backToBrowse))
        writeDuplicate(copy)
    }

    private func writeDuplicate(_ copy: PendingDuplicate) {
        guard let entity = container.model.entity(named: copy.entity) else { return }
        var values = copy.values
        for i in values.indices where copy.asks.contains(values[i].key) {
            guard let attribute = entity.attribute(named: values[i].key), let text = copy.typed[values[i].key],
                  case .success(let typed) = FieldText.parse(text, for: attribute) else { continue }
            values[i].value = typed
        }
        let name = copy.entity, toOnes = copy.toOnes
        let assigned = values.map { ($0.key, $0.value) }
        write("duplicate \(name)", success: "duplicated the \(name)", { ctx in
            let object = try ctx.insert(name)
            for (key, value) in assigned { try object.setValue(value, forKey: key) }
            for (key, target) in toOnes { try object.setToOne(key, try target.map { try ctx.existingObject(with: $0) }) }
            return object.objectID
        }, then: { [weak self] id in
            guard let self else { return }
            pendingDuplicate = nil
            selectedID = container.store.permanentID(for: id) ?? id
        }, failed: { [weak self] error in
            guard let self else { return }
            // Nothing typed is lost: the line opens again at the first value with the reason,
            // unless the user is busy elsewhere (then the status says it).
            if !copy.asks.isEmpty, state.mode == .browse {
                var again = copy
                again.at = 0
                pendingDuplicate = again
                ask(again, reason: "not saved: \(describe(error))")
            } else {
                send(.status("duplicate failed: \(describe(error))", error: true))
            }
        })
    }
}
