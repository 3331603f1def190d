import VellumStore

/// A list the session opened (an entity, or a relationship's members), as an input:
/// the reducer puts its columns, size and cursor into the state.
public struct ListShown: Sendable, Equatable {
    public var entityIndex: Int
    /// A relationship list's restriction, said in the status bar (nil: the whole entity).
    public var title: String?
    /// Attributes, then relationships (`relationshipColumns`).
    public var columnNames: [String]
    public var columnTypes: [AttributeType]
    public var relationshipColumns: [RelationshipColumn] = []
    /// Attributes, then relationships, in the detail pane.
    public var detailFieldCount: Int
    public var rowCount: Int
    /// The row of the record to select, if one was asked for (nil: the cursor stays).
    public var cursorRow: Int?
    /// Why the list could not be read (it shows empty).
    public var error: String?
    /// The entity's column layout as saved in the user's state directory, if any.
    public var columnLayout: ColumnLayout? = nil
    /// The other entities' saved layouts (their display keys name this list's to-one targets).
    public var otherColumnLayouts: [String: ColumnLayout] = [:]
    /// The column to put the cursor on, by name (going back to a list: where it was).
    public var cursorColumn: String? = nil
}

/// The rows of the open list moved or changed (a save, a merge, a new query).
public struct RowsChanged: Sendable, Equatable {
    public var rowCount: Int
    /// Where the selected record is now, if it is still listed.
    public var selectedRow: Int?
    public var sectionHeaders: [Int: String]
}
