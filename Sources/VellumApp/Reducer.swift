import VellumStore
import VellumTerminal

/// Key handling as a pure function: state + key → new state + effects.
/// Anything needing the store or the terminal is returned as an `Effect`.
public enum Reducer {
    public static func update(_ state: inout AppState, key: VellumTerminal.Key) -> [Effect] {
        if key == .resize { state.clamp(); return [] }
        if state.terminalTooSmall { return ignore(&state, key) }
        keyPressed(&state)
        if cancelsWork(state, key) { return [.cancelWork(quietly: false)] }
        switch state.mode {
        case .browse: return browse(&state, key)
        case .help: return help(&state, key)
        case .confirmDelete:
            state.mode = .browse
            // The question is answered: its preview, if still counting, is not needed.
            let stop: [Effect] = state.runningWork == nil ? [] : [.cancelWork(quietly: true)]
            if state.keyMap.modeAction(for: key, in: .question) == .yes { return stop + [state.marked.isEmpty ? .deleteRecord : .deleteMarked] }
            state.setStatus("delete cancelled")
            return stop
        case .edit: return edit(&state, key)
        case .conflict: return conflict(&state, key)
        case .picker: return picker(&state, key)
        case .filter: return filter(&state, key)
        case .command: return command(&state, key)
        case .summary: return summary(&state, key)
        case .search: return search(&state, key)
        case .confirmReplace: return confirmReplace(&state, key)
        case .columnList: return columnList(&state, key)
        case .confirmBulkEdit: return confirmBulkEdit(&state, key)
        case .confirmTracking: return confirmTracking(&state, key)
        case .messages: return messages(&state, key)
        case .duplicate: return duplicate(&state, key)
        case .pager: return pager(&state, key)
        case .form: return form(&state, key)
        }
    }

    /// Esc or Ctrl-C stops long work running off the main thread: in the list (and in the
    /// delete question its preview counts for); elsewhere Esc does what it does there
    /// (closes help, a prompt) and Ctrl-C still stops the work. Fixed keys, like the line
    /// editor's: not in the command table.
    static func cancelsWork(_ s: AppState, _ key: VellumTerminal.Key) -> Bool {
        guard s.runningWork != nil, key == .escape || key == .ctrl("c") else { return false }
        return key == .ctrl("c") || s.mode == .browse || s.mode == .confirmDelete
    }

    private static func browse(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        if case .mouse(let event) = key {
            movedOn(&s)
            return mouse(&s, event)
        }
        if takeCountDigit(&s, key) { return [] }
        let count = s.countPrefix
        s.countPrefix = ""
        guard let action = s.keyMap.action(for: key) else { return [] }
        movedOn(&s)
        if let effects = jumps(&s, action, count: count) { return effects }
        let sidebar = s.focus == .sidebar, detail = s.focus == .detail
        let previousRow = s.cursorRow
        switch action {
        case .moveDown: if sidebar { s.sidebarCursor += 1 } else if detail { s.detailCursor += 1 } else { s.cursorRow += 1 }
        case .moveUp: if sidebar { s.sidebarCursor -= 1 } else if detail { s.detailCursor -= 1 } else { s.cursorRow -= 1 }
        case .top: if sidebar { s.sidebarCursor = 0 } else if detail { s.detailCursor = 0 } else { s.cursorRow = 0 }
        case .bottom:
            if sidebar { s.sidebarCursor = s.entityNames.count - 1 } else if detail { s.detailCursor = s.detailFieldCount - 1 } else { s.cursorRow = s.rowCount - 1 }
        case .pageDown: s.cursorRow += max(1, s.pageSize); s.scrollOffset += max(1, s.pageSize)
        case .pageUp: s.cursorRow -= max(1, s.pageSize); s.scrollOffset -= max(1, s.pageSize)
        case .columnLeft: s.cursorColumn -= 1
        case .columnRight: s.cursorColumn += 1
        case .switchFocus:
            let order: [AppState.Focus] = [.sidebar, .table, .detail]
            let i = order.firstIndex(of: s.focus) ?? 1
            s.focus = order[(i + (key == .backTab ? 2 : 1)) % 3]
            if s.focus == .sidebar { s.sidebarCursor = s.selectedEntity }
        case .open:
            if sidebar {
                s.clamp()
                return open(&s, s.sidebarCursor)
            }
            if detail { return s.rowCount > 0 ? [.activateDetailField] : [] }
            return beginEdit(&s, follow: true)
        case .edit:
            if detail { return s.rowCount > 0 ? [.editDetailField] : [] }
            return sidebar ? [] : beginEdit(&s)
        case .filter:
            s.mode = .filter
            s.promptError = nil
            s.editor = LineEditor(s.filterText)
            s.filterError = parseError(s.filterText)
        case .sortAscending, .sortDescending, .sortThen:
            guard s.columnNames.indices.contains(s.cursorColumn) else { return [] }
            let column = s.columnNames[s.cursorColumn]
            guard let path = s.sortKeyPath(ofColumn: column) else {
                let destination = s.relationshipColumn(column)?.destination ?? column
                s.setStatus("cannot sort by \(column): \(destination) has no name-like attribute (:display KEY names one)", error: true)
                return []
            }
            // Active only once the session has run it (`state.sort` is set there).
            if action == .sortThen { return sortThen(&s, by: path, column: column) }
            return [.applySort(VellumStore.QuerySortDescriptor(keyPath: path, ascending: action == .sortAscending))]
        case .add, .addWithForm: return s.currentEntityName == nil ? [] : [.addRecord(form: action == .addWithForm)]
        case .delete:
            if !s.marked.isEmpty { return confirmDeleteMarked(&s) }
            guard s.rowCount > 0 else { s.setStatus("nothing to delete", error: true); return [] }
            s.mode = .confirmDelete
            s.deleteCascadeCount = 0
            s.setStatus("delete this \(s.currentEntityName ?? "record")? y/n")
            return [.previewDeletion]
        case .undo: return [.undo]
        case .redo: return [.redo]
        case .help:
            s.mode = .help
            s.helpScroll = 0
        case .command:
            s.mode = .command
            s.promptError = nil
            s.completionCycle = nil
            s.editor = LineEditor()
        case .back:
            return s.backStack.isEmpty ? [] : [.back]
        case .cancel:
            // Esc never leaves the list: after an edit it is often pressed once too often.
            s.setStatus(s.backStack.isEmpty ? "nothing to close" : "nothing to close — Bksp goes back to the previous list")
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .summary:
            guard s.columnNames.indices.contains(s.cursorColumn) else { return [] }
            return [.openSummary]
        case .view:
            guard s.rowCount > 0, s.focus != .sidebar else { s.setStatus("no value here to view", error: true); return [] }
            return [.openPager]
        case .foldSection, .foldAllSections: fold(&s, all: action == .foldAllSections)
        case .narrowDetail, .widenDetail:
            let range = Layout.detailStepRange
            let steps = min(range.upperBound, max(range.lowerBound, s.detailSteps + (action == .widenDetail ? 1 : -1)))
            guard steps != s.detailSteps else { return [] }
            s.detailSteps = steps
            if let size = s.layout?.size { _ = reduce(&s, .layout(Layout(size: size, detailSteps: s.detailSteps))) }
            return [.saveSettings(BrowserSettings(detailSteps: steps))]
        case .search:
            s.mode = .search
            s.promptError = nil
            s.editor = LineEditor(suggesting: s.searchText)
        case .searchNext, .searchPrevious:
            guard !s.searchText.isEmpty else { s.setStatus("nothing to find — f starts a search", error: true); return [] }
            return [.search(s.searchText, forward: action == .searchNext, regex: s.searchIsRegex)]
        case .duplicate:
            guard s.rowCount > 0 else { s.setStatus("nothing to duplicate", error: true); return [] }
            return [.duplicateRecord]
        case .hideColumn, .columnList, .narrowColumn, .widenColumn, .moveColumnLeft, .moveColumnRight, .firstColumn, .lastColumn:
            return columns(&s, action)
        case .jumpBack, .jumpForward: return []   // in the table only (`jumps`)
        case .toggleMark, .markRange, .markAll, .invertMarks, .unmarkAll: return marks(&s, action)
        case .yankCell: return s.rowCount > 0 ? [.yank(Yank(scope: .cell, format: .text))] : []
        case .yankRows: return s.rowCount > 0 ? [.yank(Yank(scope: .rows, format: .tsv))] : []
        case .track: return [.planTracking(untrack: false)]
        }
        s.clamp()
        if s.focus == .table, s.cursorRow != previousRow {
            s.stepOverFoldedSection(movingDown: s.cursorRow > previousRow, from: previousRow)
            s.clamp()
        }
        return []
    }

    private static func conflict(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .conflict) {
        case .keepMine?: return [.resolveConflict(keepMine: true)]
        case .takeTheirs?: return [.resolveConflict(keepMine: false)]
        case .conflictBack? where s.conflict?.replay != nil:
            // An undo or redo waits: nothing was written, the action stays.
            s.conflict = nil
            s.mode = .browse
            s.setStatus("nothing written; the action stays to undo or redo later")
            return []
        case .conflictBack?:
            s.mode = .edit
            return []
        default: return []
        }
    }

    private static func picker(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .picker) {
        case .pickerCancel? where s.form != nil:
            pickIntoForm(&s, choose: false)
            return []
        case .pickerCancel?:
            s.mode = .browse
            s.setStatus("picker cancelled")
            return []
        case .pickerUp?: s.pickerCursor -= 1
        case .pickerDown?: s.pickerCursor += 1
        case .pickerPageUp?: s.pickerCursor -= 10
        case .pickerPageDown?: s.pickerCursor += 10
        case .pickerChoose? where s.form != nil: pickIntoForm(&s, choose: true)
        case .pickerChoose?: return [.pickerChoose]
        case .pickerToggle? where s.picker.isMembership:
            guard s.picker.shown.indices.contains(s.pickerCursor), let id = s.picker.shown[s.pickerCursor] else { return [] }
            s.picker.toggle(id)
            s.pickerCursor += 1
        default:
            // After the search changed the highlight goes to the first match: ∅ (clear)
            // is only ever chosen explicitly.
            if s.editor.handle(key) { s.pickerCursor = s.picker.search(s.editor.text) == 0 ? 0 : s.picker.firstMatch }
        }
        s.clamp()
        return []
    }

    static func open(_ s: inout AppState, _ index: Int) -> [Effect] {
        guard s.entityNames.indices.contains(index) else { return [] }
        s.sidebarCursor = index
        s.focus = .table
        s.cursorRow = 0; s.scrollOffset = 0; s.cursorColumn = 0
        s.filterError = nil
        return [.openEntity(index)]
    }

    /// `+`: the column becomes the next sort key (ascending); again, descending; again,
    /// not a key. With no sort yet it is the sort; the primary key is changed by s/S.
    private static func sortThen(_ s: inout AppState, by path: [String], column: String) -> [Effect] {
        var sorts = s.sortDescriptors
        guard !sorts.isEmpty else { return [.applySort(VellumStore.QuerySortDescriptor(keyPath: path))] }
        if let at = sorts.firstIndex(where: { $0.keyPath == path }) {
            guard at > 0 else {
                s.setStatus("\(column) is the first sort key: s/S set its direction", error: true)
                return []
            }
            if sorts[at].ascending { sorts[at].ascending = false } else { sorts.remove(at: at) }
        } else {
            sorts.append(VellumStore.QuerySortDescriptor(keyPath: path))
        }
        return [.applySorts(sorts)]
    }

    /// Enter (`follow`) or `e` on a cell: edits an attribute; on a relationship column
    /// follows it (the target, or the list of members), and `e` on a to-one picks one.
    private static func beginEdit(_ s: inout AppState, follow: Bool = false) -> [Effect] {
        guard s.rowCount > 0, s.columnNames.indices.contains(s.cursorColumn) else { return [] }
        if let r = s.cursorRelationshipColumn { return [.activateRelationship(r.name, edit: !follow)] }
        return [.beginEdit]
    }

    private static func edit(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .line) {
        case .lineCancel?:
            s.mode = .browse
            s.editError = nil
            s.editNotice = nil
            s.setStatus("edit cancelled")
            return []
        case .lineConfirm?:
            return [.commitEdit(s.editor.text)]
        case .lineToggle? where s.currentColumnType == .boolean:
            s.editor.setText(s.editor.text.lowercased() == "true" ? "false" : "true")
        case .linePaste?:
            pasteRegister(&s)
        default:
            s.editor.handle(key)
        }
        s.editError = nil
        return []
    }

    /// Pastes the register (the last yank) at the editor's cursor; line breaks become spaces.
    static func pasteRegister(_ s: inout AppState) {
        for c in s.register { _ = s.editor.handle(.char(c == "\n" || c == "\t" ? " " : c)) }
    }

    private static func filter(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .line) {
        case .lineCancel?:
            s.mode = .browse
            s.filterError = parseError(s.filterText)
            s.promptError = nil
            return []
        case .lineConfirm?:
            let text = s.editor.text.trimmingCharacters(in: .whitespaces)
            if let error = parseError(text) { s.filterError = error; return [] }
            // The prompt stays open until the session has validated and run it.
            return [.applyFilter(text)]
        default:
            s.editor.handle(key)
            s.filterError = parseError(s.editor.text)
            s.promptError = nil
            return []
        }
    }

    private static func command(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        switch s.keyMap.modeAction(for: key, in: .line) {
        case .lineCancel?:
            s.mode = .browse
            s.promptError = nil
            s.completionCycle = nil
            return []
        case .lineConfirm?:
            s.completionCycle = nil
            // A refused command keeps the line open with the reason, as the `/` prompt does,
            // so what is typed next is never taken for one-letter commands.
            s.setStatus(nil)
            let effects = runCommand(&s, s.editor.text)
            if s.statusIsError {
                s.promptError = s.statusMessage
                s.setStatus(nil)
                return effects
            }
            // A filter or sort closes the line once the session has run it.
            // (A command may open its own question, such as `:set`'s y/n.)
            if !effects.contains(where: \.isQuery), s.mode == .command { s.mode = .browse }
            return effects
        case .lineComplete?:
            complete(&s)
            return []
        case .lineCompletePrevious?:
            complete(&s, backward: true)
            return []
        default:
            s.completionCycle = nil
            s.editor.handle(key)
            s.promptError = nil
            return []
        }
    }

    /// Runs a `:` line through the command it names (see `CommandTable`).
    public static func runCommand(_ s: inout AppState, _ line: String) -> [Effect] {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        let name = String(trimmed.prefix { !$0.isWhitespace })
        let argument = trimmed.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return [] }
        if let row = Int(name), argument.isEmpty { return jump(&s, toRow: row) }
        guard let command = CommandTable.typed(name) else {
            s.setStatus("unknown command :\(name)", error: true)
            return []
        }
        return command.run(&s, argument)
    }

    /// nil when `text` is empty (no filter) or a valid predicate.
    public static func parseError(_ text: String) -> ParseError? {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        do { _ = try VellumStore.QueryPredicate(format: text); return nil } catch { return error.parseError }
    }
}
