import VellumStore
import VellumTerminal

/// Everything one frame shows, as plain values. It is built from the state
/// and the row source before drawing (`ViewModel.build`), so the renderer
/// never reads the store: no fault fires, no relationship loads and no SQL
/// runs while a frame is drawn.
public struct ViewModel: Sendable {
    public var state: AppState
    public var layout: Layout
    public var fileName: String
    public var entityCounts: [Int]
    public var pendingWrites: Int
    /// nil when no entity is open.
    public var table: TableView?
    /// nil when the detail pane has nothing to show (no pane, no row).
    public var detail: DetailView?
}

/// The table's lines as the renderer draws them.
public struct TableView: Sendable, Equatable {
    public var entityName: String
    public var rowCount: Int
    /// The sort actually used (the user's, or the default one).
    public var effectiveSort: VellumStore.QuerySortDescriptor?
    /// Section headers and rows from the scroll offset.
    public var lines: [TableLine]
    /// Per `.row` line, in order: its record's row index, cell texts and whether it flashes.
    public var rows: [Row]
    /// Where the columns are drawn, from the shown rows' texts.
    public var columns = ColumnPlacement()

    public struct Row: Sendable, Equatable {
        public var index: Int
        public var cells: [String]
        public var flashing: Bool
        /// Marked (`t`): bulk edit and delete act on it.
        public var marked = false
        /// The cell the last find landed on and the characters of its text that matched.
        public var found: FoundMark?
    }

    public struct FoundMark: Sendable, Equatable {
        public var column: Int
        public var characters: Range<Int>
    }
}

/// The detail pane: the shown record's title and its fields.
public struct DetailView: Sendable, Equatable {
    public var title: String
    public var fields: [Field]

    public struct Field: Sendable, Equatable {
        public var name: String
        public var value: String
        public var isRelationship: Bool
    }
}
