import VellumTerminal

/// Marking rows and the bulk actions on the marked records.
extension Reducer {
    static func marks(_ s: inout AppState, _ action: KeyAction) -> [Effect] {
        guard s.focus == .table else { return [] }
        switch action {
        case .unmarkAll:
            s.marked = []
            s.markAnchorRow = nil
            s.setStatus("no rows marked")
            return []
        case _ where s.rowCount == 0:
            s.setStatus("nothing to mark", error: true)
            return []
        case .toggleMark:
            let row = s.cursorRow
            s.markAnchorRow = row
            s.cursorRow += 1
            s.clamp()
            return [.mark(.toggle(row: row))]
        case .markRange:
            let from = min(s.markAnchorRow ?? s.cursorRow, s.rowCount - 1)
            s.markAnchorRow = s.cursorRow
            return [.mark(.range(min(from, s.cursorRow)...max(from, s.cursorRow)))]
        case .markAll: return [.mark(.all)]
        default: return [.mark(.invert)]
        }
    }

    /// `d` with rows marked asks about all of them, naming the count (the preview adds cascades).
    static func confirmDeleteMarked(_ s: inout AppState) -> [Effect] {
        s.mode = .confirmDelete
        s.deleteCascadeCount = 0
        s.setStatus("delete \(countText(s.marked.count, s.currentEntityName ?? "record")) (marked)? y/n")
        return [.previewDeletion]
    }

    /// `:set VALUE`: sets the cursor's column of every marked record, after a yes.
    @Sendable static func setMarked(_ s: inout AppState, _ argument: String) -> [Effect] {
        guard !s.marked.isEmpty else { s.setStatus("set: no rows marked (t marks a row, * all listed rows)", error: true); return [] }
        guard s.columnNames.indices.contains(s.cursorColumn) else { s.setStatus("set: no column", error: true); return [] }
        if let r = s.cursorRelationshipColumn {
            s.setStatus("set: \(r.name) is a relationship; :set sets an attribute column (Enter on a cell follows it)", error: true)
            return []
        }
        let edit = BulkEdit(key: s.columnNames[s.cursorColumn], text: argument)
        s.pendingBulkEdit = edit
        s.mode = .confirmBulkEdit
        let value = argument.isEmpty ? "empty" : "'\(argument)'"
        s.setStatus("set \(edit.key) of \(countText(s.marked.count, s.currentEntityName ?? "record")) (marked) to \(value)? y/n")
        return [.noteBulkEditBase(key: edit.key)]
    }

    static func confirmBulkEdit(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        s.mode = .browse
        guard let edit = s.pendingBulkEdit else { return [] }
        s.pendingBulkEdit = nil
        if s.keyMap.modeAction(for: key, in: .question) == .yes { return [.setMarked(key: edit.key, text: edit.text)] }
        s.setStatus("set cancelled; nothing written")
        return []
    }

    /// "1 Product", "12 Product records".
    static func countText(_ n: Int, _ entity: String) -> String {
        n == 1 ? "1 \(entity)" : "\(n) \(entity) records"
    }
}
