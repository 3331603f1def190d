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
    case applySort(VellumStore.SortDescriptor?)
    /// `:sort a,-b`: sort by several keys, the first the primary order.
    case applySorts([VellumStore.SortDescriptor])
    case addRecord
    case deleteRecord
    case setTheme(String)
    case undo
    case redo
    /// Go back to the previous list (relationship navigation or entity switch).
    case back
    /// Enter on the detail pane's current field: edit an attribute, follow a relationship.
    case activateDetailField
    /// Edit the detail pane's current field (a to-one opens the picker).
    case editDetailField
    /// Conflict prompt answer: true keeps the typed value, false takes theirs.
    case resolveConflict(keepMine: Bool)
    /// Enter in the picker: set the to-one to the chosen record.
    case pickerChoose
    /// `F`: summarize the current column over the current list (opens the overlay).
    case openSummary
    /// Move the selection to the next (or previous) row containing the text in a string field.
    case search(String, forward: Bool)
    /// Rebuild the rows grouped into sections by `state.groupKey` (nil: ungrouped).
    case applyGroup
    /// `:export csv|json PATH`: write the current list (an existing file only when `replacing`).
    case export(format: String, path: String, replacing: Bool)
    /// `D`: insert a copy of the selected record's attribute values.
    case duplicateRecord
    /// Keep an entity's column layout in the user's state directory (never the store).
    case saveColumnLayout(entity: String, ColumnLayout)

    /// A new filter or sort: it becomes active only if it validates and runs.
    var isQuery: Bool {
        switch self {
        case .applyFilter, .applySort, .applySorts: return true
        default: return false
        }
    }
}
