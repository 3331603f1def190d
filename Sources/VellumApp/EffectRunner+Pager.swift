import VellumStore

/// `v`: the whole value under the cursor — the table's cell, or the detail pane's
/// field when it has the focus — read in full from the record, for the viewer.
extension EffectRunner {
    func openPager() {
        guard let object = currentObject() else { return }
        let key: String
        if state.focus == .detail {
            let fields = detailFields()
            guard fields.indices.contains(state.detailCursor) else { return }
            switch fields[state.detailCursor] {
            case .attribute(let a): key = a.name
            case .relationship(let r): key = r.name
            }
        } else {
            guard state.columnNames.indices.contains(state.cursorColumn) else { return }
            key = state.columnNames[state.cursorColumn]
        }
        let title = "\(DisplayName.short(object)) · \(key)"
        do {
            let value = try tableValue(object, key)
            let type = object.entity.attribute(named: key)?.type
            // A keyed archive (a transformable) shows decoded, as its cell does.
            if case .data = value, type == .transformable {
                send(.result(.pagerOpened(PagerDocument(title: title, text: Renderer.cellText(value)))))
            } else {
                send(.result(.pagerOpened(PagerDocument(title: title, value: value))))
            }
        } catch {
            send(.status("view: \(describe(error))", error: true))
        }
    }
}
