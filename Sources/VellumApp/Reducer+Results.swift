/// The state changes that follow what the `EffectRunner` found in the store.
extension Reducer {
    static func apply(_ result: EffectResult, to s: inout AppState) {
        switch result {
        case .storeOpened(let entityNames, let themeNames):
            s.entityNames = entityNames
            s.themeNames = themeNames
        case .leftList(let place):
            if let place { s.backStack.append(place) }
            s.filterText = ""
            s.sort = nil
            s.thenSort = []
            s.focus = .table
            s.cursorRow = 0
            s.scrollOffset = 0
        case .wentBack:
            guard let place = s.backStack.popLast() else { return }
            s.filterText = place.filterText
            s.sort = place.sort
            s.thenSort = place.thenSort
            s.focus = .table
            s.cursorRow = 0; s.scrollOffset = 0; s.cursorColumn = 0
        case .editBegan(let text, let isOptional, let hint):
            s.editor = LineEditor(text)
            s.editError = nil
            s.editIsOptional = isOptional
            s.conflict = nil
            s.mode = .edit
            if let hint { s.setStatus(hint) }
        case .editRefused(let reason):
            s.mode = .edit
            s.editError = reason
        case .editReopened(let text, let reason):
            s.editor = LineEditor(text)
            s.mode = .edit
            s.editError = reason
        case .conflictFound(let conflict):
            s.conflict = conflict
            s.mode = .conflict
        case .backToBrowse:
            s.mode = .browse
            s.editError = nil
            s.conflict = nil
        case .summaryOpened(let summary):
            s.summary = summary
            s.mode = .summary
        case .found(let row):
            s.focus = .table
            s.cursorRow = row
        case .groupRestored(let key):
            s.groupKey = key
        case .exportNeedsConfirmation(let pending):
            s.pendingExport = pending
            s.mode = .confirmReplace
            s.setStatus("\(pending.path) exists; replace it? y/n")
        case .queryStarted:
            s.mode = .browse
            s.setStatus("filtering… (Esc or Ctrl-C cancels)")
        case .queryEnded(let mode):
            s.mode = mode
            if s.statusMessage == "filtering… (Esc or Ctrl-C cancels)" { s.setStatus(nil) }
        case .queryApplied(let filter, let sort, let atTop, let thenBy):
            s.filterText = filter
            s.sort = sort
            s.thenSort = thenBy
            if atTop { s.cursorRow = 0; s.scrollOffset = 0 }
            if s.mode == .filter || s.mode == .command { s.mode = .browse }
            s.filterError = nil
            s.promptError = nil
        case .queryRefused(let reason, let what, let cancelled):
            let prompt = s.mode == .filter || s.mode == .command
            if cancelled {
                // The user stopped it (Esc or Ctrl-C): close the prompt, keep the list as it was.
                if prompt { s.mode = .browse }
                s.setStatus("\(what) cancelled; the list is unchanged", error: true)
            } else if prompt {
                s.promptError = "\(what): \(reason)"
            } else {
                s.setStatus("\(what): \(reason)", error: true)
            }
        }
        s.clamp()
    }
}
