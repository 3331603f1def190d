/// The state changes that follow what the `EffectRunner` found in the store.
extension Reducer {
    /// Ends the status of running work that Esc or Ctrl-C can stop.
    static let cancelHint = "… (Esc or Ctrl-C cancels)"

    static func apply(_ result: EffectResult, to s: inout AppState) {
        switch result {
        case .storeOpened(let entityNames, let themeNames):
            s.entityNames = entityNames
            s.themeNames = themeNames
        case .yanked(let text, let what):
            s.register = text
            s.setStatus("copied \(what) (clipboard; ^Y pastes in the editor)")
        case .marksChanged(let marked):
            s.marked = marked
        case .deletionPreviewed(let question):
            guard s.mode == .confirmDelete else { return }
            if let refusal = question.refusal {
                s.mode = .browse
                s.setStatus(refusal, error: true)
            } else {
                s.deleteCascadeCount = question.cascaded
                s.setStatus(question.prompt)
            }
        case .leftList(let place):
            if let place { s.backStack.append(place) }
            s.workPromptMode = nil   // a prompt typed for the list left does not come back
            s.marked = []
            s.markAnchorRow = nil
            s.filterText = ""
            s.sort = nil
            s.thenSort = []
            s.focus = .table
            s.cursorRow = 0
            s.scrollOffset = 0
        case .wentBack:
            guard let place = s.backStack.popLast() else { return }
            s.workPromptMode = nil
            s.marked = []
            s.markAnchorRow = nil
            s.filterText = place.filterText
            s.sort = place.sort
            s.thenSort = place.thenSort
            s.focus = .table
            s.cursorRow = 0; s.scrollOffset = 0; s.cursorColumn = 0
        case .editBegan(let text, let isOptional, let hint):
            s.editor = LineEditor(text)
            s.editError = nil
            s.editNotice = nil
            s.editIsOptional = isOptional
            s.conflict = nil
            s.mode = .edit
            if let hint { s.setStatus(hint) }
        case .formOpened(let form):
            s.form = form
            s.mode = .form
            s.editor = form.editor
        case .formRefused(let reason, let field):
            guard var form = s.form else { s.setStatus(reason, error: true); return }
            form.isSaving = false
            form.refusal = reason
            if let field, let i = form.fields.firstIndex(where: { $0.name == field }), s.mode == .form {
                form.cursor = i
                s.editor = form.editor
            }
            s.form = form
        case .formSaved:
            s.form = nil
            if s.mode == .form || s.mode == .picker { s.mode = .browse }
        case .pagerOpened(let document):
            s.pager = PagerState(document: document, width: PagerOverlay(size: s.layout?.size ?? HelpOverlay.fallbackSize).textWidth)
            s.mode = .pager
        case .duplicateAsks(let prompt):
            s.duplicatePrompt = prompt
            s.editor = LineEditor(prompt.text)
            s.promptError = prompt.reason
            s.mode = .duplicate
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
            s.editNotice = nil
        case .editTargetChanged(let notice):
            guard s.mode == .edit else { return }
            s.editNotice = notice
        case .backToBrowse:
            s.mode = .browse
            s.form = nil
            s.editError = nil
            s.editNotice = nil
            s.conflict = nil
        case .summaryOpened(let summary):
            s.summary = summary
            s.mode = .summary
        case .jumpedToRow(let row):
            s.jumps.leave(s.cursorRow)
            s.focus = .table
            s.cursorRow = row
        case .found(let row, let column, let cell):
            s.focus = .table
            s.cursorRow = row
            if let column { s.cursorColumn = column }
            s.foundCell = cell
        case .sectionFigures(let figures):
            s.sectionFigures = figures
        case .groupRestored(let key, let aggregate):
            s.groupKey = key
            s.sectionAggregate = aggregate
            s.collapsedSections = []
        case .exportNeedsConfirmation(let pending):
            s.pendingExport = pending
            s.mode = .confirmReplace
            s.setStatus("\(pending.path) exists; replace it? y/n")
        case .trackingNeedsConfirmation(let question):
            s.pendingTracking = question
            s.mode = .confirmTracking
        case .workStarted(let doing):
            s.runningWork = doing
            if [.filter, .command, .search].contains(s.mode) {
                s.workPromptMode = s.mode
                s.mode = .browse
            }
            s.setStatus(doing + cancelHint)
        case .workEnded:
            s.runningWork = nil
            // The prompt comes back (for a refusal's reason) unless the user went elsewhere meanwhile.
            if let prompt = s.workPromptMode, s.mode == .browse { s.mode = prompt }
            s.workPromptMode = nil
            if s.statusMessage?.hasSuffix(cancelHint) == true { s.setStatus(nil) }
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
