import VellumStore

/// Adding records: at once with the model's defaults, or through the form
/// (`RecordForm`) when the store cannot supply a value the record needs.
extension EffectRunner {
    func addRecord(form: Bool) {
        guard let entity else { return }
        if entity.isAbstract {
            let concrete = entity.subentityNames.filter { container.model.entity(named: $0)?.isAbstract == false }
            send(.status("\(entity.name) is abstract: add one of its kinds (\(concrete.joined(separator: ", ")))", error: true))
            return
        }
        let recordForm = Self.form(for: entity)
        if form || recordForm.fields.contains(where: \.isMissing) {
            send(.result(.formOpened(recordForm)))
            return
        }
        let name = entity.name
        write("add \(name)", success: "added a \(name)", { ctx in try ctx.insert(name).objectID }, then: { [weak self] id in
            guard let self else { return }
            selectedID = container.store.permanentID(for: id) ?? id
        }, failed: { [weak self] error in
            self?.send(.store(.saveFailed(self?.describe(error) ?? "")))
        })
    }

    /// Every field a new record of `entity` can be given here, defaults filled: its
    /// attributes that can be typed (not transient), its to-ones, and the to-manys it
    /// cannot be saved without (optional to-many members are added after saving, or
    /// from the other side).
    static func form(for entity: Entity) -> RecordForm {
        let attributes = entity.attributes.filter { !$0.isTransient && FieldText.isEditable($0.type) }.map { a in
            RecordForm.Field(attribute: a, text: a.defaultValue.map { FieldText.editText($0, type: a.type) } ?? "")
        }
        let toOnes = entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(RecordForm.Field.init(toOne:))
        let toManys = entity.relationships.filter { $0.isToMany && !$0.isTransient && !$0.isOptional }.map(RecordForm.Field.init(toMany:))
        return RecordForm(entity: entity.name, fields: attributes + toOnes + toManys)
    }

    /// Enter on the form's relationship `key`: the picker over its destination (the
    /// membership picker for a to-many); the choice goes into the form.
    func pickIntoForm(_ key: String) {
        guard let form = state.form, let field = form.fields.first(where: { $0.name == key }) else { return }
        do {
            let title = "\(key) of the new \(form.entity) → "
            switch field.kind {
            case .attribute: return
            case .toOne(let destination):
                send(.pickerOpened(title: title + destination, candidates: try pickerCandidates(of: destination), current: field.target))
            case .toMany(let destination, _):
                send(.pickerOpened(title: title + destination, candidates: try pickerCandidates(of: destination),
                                   current: field.targets.first, chosen: Set(field.targets)))
            }
        } catch {
            send(.status(describe(error), error: true))
        }
    }

    /// Writes the form as one insert. Refused (a uniqueness conflict, a record picked
    /// that another writer deleted), the form stays open with every typed value and the reason.
    func saveForm() {
        guard let form = state.form, let entity = container.model.entity(named: form.entity) else { return }
        var values: [(String, Value)] = []
        var targets: [(String, ObjectID?)] = []
        var members: [(String, [ObjectID])] = []
        for field in form.fields {
            if let attribute = field.attribute {
                guard case .success(let value) = FieldText.parse(field.text, for: attribute) else {
                    send(.result(.formRefused("not saved: \(field.name): \(field.problem ?? "not valid")", field: field.name)))
                    return
                }
                values.append((field.name, value))
            } else if field.isToOne {
                targets.append((field.name, field.target))
            } else {
                members.append((field.name, field.targets))
            }
        }
        let name = entity.name
        write("add \(name)", success: "added a \(name)", { [values, targets, members] ctx in
            let object = try ctx.insert(name)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            for (key, target) in targets {
                guard let target else { continue }
                do { try object.setToOne(key, try ctx.existingObject(with: target)) } catch StoreError.objectNotFound {
                    throw RecordDeletedMeanwhile.picked(for: key)
                }
            }
            for (key, ids) in members {
                do { try object.setToMany(key, try ids.map { try ctx.existingObject(with: $0) }) } catch StoreError.objectNotFound {
                    throw RecordDeletedMeanwhile.chosen(for: key)
                }
            }
            return object.objectID
        }, then: { [weak self] id in
            guard let self else { return }
            send(.result(.formSaved))
            selectedID = container.store.permanentID(for: id) ?? id
        }, failed: { [weak self] error in
            guard let self else { return }
            send(.result(.formRefused("not saved: \(describe(error))", field: Self.field(named: error))))
        })
    }

    /// The field a failed save names, to put the cursor there.
    static func field(named error: Error) -> String? {
        switch error {
        case let gone as RecordDeletedMeanwhile: return gone.field
        case StoreError.validation(let f): return f.key
        case StoreError.multipleValidation(let fs): return fs.first?.key
        case StoreError.conflicts(let cs):
            if case .uniqueness(let attributes, _)? = cs.first?.kind { return attributes.first }
            return nil
        default: return nil
        }
    }
}
