import VellumTerminal

extension Renderer {
    /// The new-record form: one line per field (`*` marks the required ones), the
    /// current one editable; what is wrong shows beside each field and, for the
    /// current one, in full under the fields; the bottom edge says what still stops the save.
    static func form(_ f: Frame, _ screen: any CellCanvas) {
        guard let form = f.state.form else { return }
        let size = screen.size, t = f.theme
        let width = min(size.columns - 4, 76), height = max(5, min(size.rows - 3, form.fields.count + 4))
        let top = max(0, (size.rows - 2 - height) / 2), left = max(0, (size.columns - width) / 2)
        box(screen, top: top, left: left, width: width, height: height, style: t[.border])
        screen.fill(row: top + 1, col: left + 1, width: width - 2, height: height - 2, style: t[.text])
        screen.put(row: top, col: left + 2, text: " new \(form.entity) ", style: t[.header], maxWidth: width - 4)
        let labelWidth = min(18, (form.fields.map { DisplayWidth.of($0.name) }.max() ?? 4) + 1)
        let valueCol = left + 4 + labelWidth, valueWidth = max(1, left + width - 2 - valueCol)
        let listHeight = max(1, height - 4)
        let first = max(0, min(form.cursor - listHeight / 2, form.fields.count - listHeight))
        for (y, i) in (first..<min(form.fields.count, first + listHeight)).enumerated() {
            let field = form.fields[i], row = top + 1 + y, current = i == form.cursor && f.state.mode == .form
            let style = current ? t[.selection] : t[.text]
            if current { screen.fill(row: row, col: left + 1, width: width - 2, style: style) }
            screen.put(row: row, col: left + 2, text: field.isRequired ? "*" : " ", style: field.isMissing ? t[.error] : t[.accent])
            screen.put(row: row, col: left + 4, text: DisplayWidth.fit(field.name, toWidth: labelWidth), style: current ? style : t[.dim])
            if current && !field.isPicked {
                editorLine(f.state.editor, row: row, col: valueCol, width: valueWidth, style: style, screen)
                continue
            }
            let shown = field.isPicked ? (field.text.isEmpty ? "∅ (none) — Enter picks" : "→ " + field.text) : field.text
            let used = screen.put(row: row, col: valueCol, text: shown, style: field.isPicked && field.text.isEmpty ? t[.dim] : style,
                                  maxWidth: valueWidth)
            if let problem = field.problem, !current, used + 3 < valueWidth {
                screen.put(row: row, col: valueCol + used + 2, text: "⚠ " + problem, style: t[.error], maxWidth: valueWidth - used - 2)
            }
        }
        // Under the fields: why the last save was refused, else what is wrong with the current field, else how to type it.
        let note = form.refusal.map { ($0, t[.error]) }
            ?? form.current.flatMap { field in field.problem.map { ("\(field.name): \($0)", t[.error]) } }
            ?? form.current.map { ($0.typeHint, t[.dim]) }
        if let (text, style) = note {
            screen.put(row: top + height - 2, col: left + 2, text: text, style: style, maxWidth: width - 4)
        }
        let footer = form.isSaving ? "saving…" : form.isComplete ? "complete — \(f.state.keyMap.firstLabel(for: "form-save") ?? "form-save") saves" : form.footer
        screen.put(row: top + height - 1, col: left + 2, text: " \(footer) ", style: t[.border], maxWidth: width - 4)
    }
}
