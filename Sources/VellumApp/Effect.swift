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
    case addRecord
    case deleteRecord
    case setTheme(String)
}
