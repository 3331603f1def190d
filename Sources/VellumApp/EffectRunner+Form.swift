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
    /// attributes that can be typed (not transient), then its to-ones (to-many members
    /// are added from the other side, or after saving).
    static func form(for entity: Entity) -> RecordForm {
        let attributes = entity.attributes.filter { !$0.isTransient && FieldText.isEditable($0.type) }.map { a in
            RecordForm.Field(attribute: a, text: a.defaultValue.map { FieldText.editText($0, type: a.type) } ?? "")
        }
        let toOnes = entity.relationships.filter { !$0.isToMany && !$0.isTransient }.map(RecordForm.Field.init(toOne:))
        return RecordForm(entity: entity.name, fields: attributes + toOnes)
    }

    /// Enter on the form's to-one `key`: the picker over its destination; the choice goes into the form.
    func pickIntoForm(_ key: String) {
        guard let form = state.form, let field = form.fields.first(where: { $0.name == key }),
              case .toOne(let destination) = field.kind else { return }
        do {
            let candidates = try pickerCandidates(of: destination)
            send(.pickerOpened(title: "\(key) of the new \(form.entity) → \(destination)", candidates: candidates, current: field.target))
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
        for field in form.fields {
            if let attribute = field.attribute {
                guard case .success(let value) = FieldText.parse(field.text, for: attribute) else {
                    send(.result(.formRefused("not saved: \(field.name): \(field.problem ?? "not valid")", field: field.name)))
                    return
                }
                values.append((field.name, value))
            } else {
                targets.append((field.name, field.target))
            }
        }
        let name = entity.name
        write("add \(name)", success: "added a \(name)", { [values, targets] ctx in
            let object = try ctx.insert(name)
            for (key, value) in values { try object.setValue(value, forKey: key) }
            for (key, target) in targets {
                guard let target else { continue }
                do { try object.setToOne(key, try ctx.existingObject(with: target)) } catch StoreError.objectNotFound {
                    throw RecordDeletedMeanwhile.picked(for: key)
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
