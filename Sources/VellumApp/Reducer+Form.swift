import VellumTerminal

/// The new-record form (`a`, `A`): typing fills the current field and is checked at
/// every key; the record is written only when every field is valid; Esc after typing
/// asks before anything typed is dropped.
extension Reducer {
    static func form(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        guard var form = s.form else { s.mode = .browse; return [] }
        if form.confirmingDiscard {
            form.confirmingDiscard = false
            if s.keyMap.modeAction(for: key, in: .question) == .yes { return closeForm(&s, "add cancelled; nothing written") }
            s.form = form
            s.setStatus("kept the form")
            return []
        }
        var effects: [Effect] = []
        let before = form.cursor
        switch s.keyMap.modeAction(for: key, in: .form) {
        case .formCancel?:
            guard !form.isSaving else { s.setStatus("saving the \(form.entity)… a moment"); return [] }
            guard form.isChanged else { return closeForm(&s, "add cancelled; nothing written") }
            form.confirmingDiscard = true
        case .formNext?: form.move(1)
        case .formPrevious?: form.move(-1)
        case .formConfirm? where form.current?.isPicked == true:
            effects = [.formPick(form.current!.name)]
        case .formConfirm? where form.cursor < form.fields.count - 1: form.move(1)
        case .formConfirm?, .formSave?: effects = save(&form)
        default:
            guard let field = form.current else { break }
            if field.isPicked {
                s.setStatus("\(s.keyMap.firstLabel(for: "form-confirm") ?? "Enter") picks the \(field.name)", error: false)
                break
            }
            switch s.keyMap.modeAction(for: key, in: .line) {
            case .lineToggle? where field.attribute?.type == .boolean:
                s.editor.setText(s.editor.text.lowercased() == "true" ? "false" : "true")
            case .linePaste?: pasteRegister(&s)
            default: s.editor.handle(key)
            }
            form.setText(s.editor.text)
        }
        // Another field: the line editor holds its text now.
        if form.cursor != before { s.editor = form.editor }
        s.form = form
        return effects
    }

    /// Saves when every field is valid; otherwise goes to the first field in the way and says why.
    private static func save(_ form: inout RecordForm) -> [Effect] {
        guard !form.isSaving else { return [] }
        if let first = form.problems.first {
            form.cursor = form.fields.firstIndex { $0.name == first.name } ?? form.cursor
            let more = form.problems.count > 1 ? " (and \(form.problems.count - 1) more)" : ""
            form.refusal = "not saved: \(first.name): \(first.problem ?? "")\(more)"
            return []
        }
        form.isSaving = true
        form.refusal = nil
        return [.saveForm]
    }

    static func closeForm(_ s: inout AppState, _ status: String) -> [Effect] {
        s.form = nil
        s.mode = .browse
        s.setStatus(status)
        return []
    }

    /// The picker was opened from the form's relationship: the choice goes into the form, not the store.
    static func pickIntoForm(_ s: inout AppState, choose: Bool) {
        s.mode = .form
        guard choose, var form = s.form else { return }
        if let chosen = s.picker.chosen {
            let members = s.picker.candidates.filter { chosen.contains($0.id) }
            form.chooseMembers(members.map(\.id), names: members.map(\.name))
        } else {
            let shown = s.picker.shown
            guard shown.indices.contains(s.pickerCursor), shown.count > 1 || s.editor.text.isEmpty else {
                s.mode = .picker
                s.setStatus("nothing matches '\(s.editor.text)' — change the search, or Esc", error: true)
                return
            }
            form.choose(shown[s.pickerCursor], name: s.pickerItems[s.pickerCursor])
        }
        if form.cursor < form.fields.count - 1 { form.move(1) }
        s.form = form
        s.editor = form.editor
    }
}
