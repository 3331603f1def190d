import VellumStore

/// What the reducer asks the event loop to do: everything that touches the
/// store, the terminal or the theme. Keeps the reducer pure.
public enum Effect: Sendable, Equatable {
    case quit
    case suspend
    /// Switch the table to `entityNames[index]` (refetch).
    case openEntity(Int)
    /// Start editing the current cell (the loop fills the editor with the value).
    case beginEdit
    /// Parse and save the editor text into the current cell.
    case commitEdit(String)
    case applyFilter(String)
    case applySort(VellumStore.QuerySortDescriptor?)
    /// `:sort a,-b`: sort by several keys, the first the primary order.
    case applySorts([VellumStore.QuerySortDescriptor])
    /// `a`: insert a record at once, or open the form when it needs values (`A`: `form` true, always the form).
    case addRecord(form: Bool)
    /// Enter on a to-one of the form: the picker, choosing into the form.
    case formPick(String)
    /// Save the complete form (`AppState.form`) as one insert.
    case saveForm
    case deleteRecord
    case setTheme(String)
    /// `:id ID`: go to the record (a URI as `vellum query` prints it, or `p12` in the open entity).
    case jumpToRecord(String)
    /// Mouse reports on or off (a terminal request).
    case setMouseCapture(Bool)
    case undo
    case redo
    /// Go back to the previous list (relationship navigation or entity switch).
    case back
    /// Enter on the detail pane's current field: edit an attribute, follow a relationship.
    case activateDetailField
    /// Edit the detail pane's current field (a to-one opens the picker).
    case editDetailField
    /// Enter or `e` on a relationship column: follow it, or (`edit`, a to-one) open the picker.
    case activateRelationship(String, edit: Bool)
    /// Conflict prompt answer: true keeps the typed value, false takes theirs.
    case resolveConflict(keepMine: Bool)
    /// Enter in the picker: set the to-one to the chosen record.
    case pickerChoose
    /// `F`: summarize the current column over the current list (opens the overlay).
    case openSummary
    /// `v`: the whole value of the cell (or the detail pane's field) in the viewer.
    case openPager
    /// Move the selection to the next (or previous) row containing the text in a string field.
    case search(String, forward: Bool, regex: Bool = false)
    /// Rebuild the rows grouped into sections by `state.groupKey` (nil: ungrouped).
    /// `previous`: the figure the sections showed, back if the grouping fails.
    case applyGroup(previous: SectionAggregate?)
    /// `:export csv|json PATH`: write the current list (an existing file only when `replacing`).
    case export(format: String, path: String, replacing: Bool)
    /// `D`: insert a copy of the selected record's attribute values and to-one relationships
    /// (asking first for new values of its unique attributes).
    case duplicateRecord
    /// The value typed for the unique attribute `D` asked about (`AppState.duplicatePrompt`).
    case duplicateValue(String)
    /// Change the marks (`AppState.marked`) by rows of the list.
    case mark(MarkChange)
    /// Copy the cell or rows to the clipboard and the register.
    case yank(Yank)
    /// Delete every marked record: one write-queue block, one undo step.
    case deleteMarked
    /// Count what deleting the marked records (or the selected one) would cascade to or be
    /// denied by, for the question `d` asks; nothing is deleted.
    case previewDeletion
    /// Esc or Ctrl-C while long store work runs off the main thread: stop it; nothing changes
    /// (`quietly`: the question it was for is answered, so the status does not say cancelled).
    case cancelWork(quietly: Bool)
    /// Set `key` of every marked record to the value `text` stands for: one save, one undo step.
    case setMarked(key: String, text: String)
    /// `:set` asks: what the marked rows' `key` holds now, as shown, to tell later which
    /// ones another writer changed before the yes.
    case noteBulkEditBase(key: String)
    /// Keep the browser's settings (the detail pane's size) in the user's state directory.
    case saveSettings(BrowserSettings)
    /// Keep an entity's column layout in the user's state directory (never the store).
    case saveColumnLayout(entity: String, ColumnLayout)
    /// `:track`/`:track off`: find what would be added to (or removed from) the file and ask.
    case planTracking(untrack: Bool)
    /// The user said yes: install the plan (or remove tracking), then open the file again.
    case changeTracking(TrackingQuestion.Change)

    /// A new filter or sort: it becomes active only if it validates and runs.
    var isQuery: Bool {
        switch self {
        case .applyFilter, .applySort, .applySorts: return true
        default: return false
        }
    }
}
