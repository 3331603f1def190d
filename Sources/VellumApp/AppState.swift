import Foundation
import VellumStore

/// Everything the view shows, owned by the event loop and changed by the
/// reducer (keys) or the loop (store events). Widgets only read it.
public struct AppState: Sendable {
    public enum Mode: Sendable, Equatable {
        case browse, edit, filter, command, help, confirmDelete, conflict, picker, summary, search, confirmReplace
        case columnList
        /// `:messages`: the last status messages (`messages`), Esc closes.
        case messages
        /// `:set VALUE` on marked rows waits for a yes (`pendingBulkEdit`).
        case confirmBulkEdit
        /// `:track`/`:track off` waits for a yes (`pendingTracking`).
        case confirmTracking
        /// `D` on a record with unique attributes asks for the copy's values (`duplicatePrompt`).
        case duplicate
        /// `v`: the whole value of a cell or field (`pager`).
        case pager
        /// `a` (a record that needs values) or `A`: the new record's fields (`form`).
        case form
    }
    public enum Focus: Sendable, Equatable { case sidebar, table, detail }

    /// The record being edited was changed or deleted by someone else.
    public struct Conflict: Sendable, Equatable {
        public var key: String
        public var mine: String
        public var theirs: String?
        public var deleted: Bool
        public var author: String?
        /// Set when an undo or redo (not an edit) met the change.
        public var replay: Replay? = nil
        public enum Replay: Sendable, Equatable { case undo, redo }
    }

    /// Where Backspace/Esc returns to.
    public struct Place: Sendable, Equatable {
        public var entityIndex: Int
        public var basePredicate: VellumStore.QueryPredicate?
        public var title: String?
        public var filterText: String
        public var sort: VellumStore.QuerySortDescriptor?
        public var selected: ObjectID?
        public var thenSort: [VellumStore.QuerySortDescriptor] = []
        /// The column the cursor was on (by name: the columns are arranged again on return).
        public var column: String? = nil
    }

    /// Facts about the data the reducer needs for cursor arithmetic.
    public var entityNames: [String] = []
    public var columnNames: [String] = []
    public var columnTypes: [AttributeType] = []
    /// Every attribute column of the entity in model order; `columnNames` are the shown ones.
    public var allColumnNames: [String] = []
    public var allColumnTypes: [AttributeType] = []
    /// The open list's relationship columns by name (they follow its attributes in `allColumnNames`).
    public var relationshipColumns: [String: RelationshipColumn] = [:]
    /// Column arrangements by entity name (order, hidden, widths), kept in the user's state directory.
    public var columnLayouts: [String: ColumnLayout] = [:]
    /// Cursor of the columns list (mode `.columnList`), over `ColumnLayout.ordered(allColumnNames)`.
    public var columnListCursor = 0
    /// Digits typed before a key (`123G`).
    public var countPrefix = ""
    /// Rows the cursor jumped from, to go back (`[`) and forward (`]`).
    public var jumps = JumpList()
    public var rowCount = 0
    public var pageSize = 10

    public var selectedEntity = 0
    public var sidebarCursor = 0
    public var focus: Focus = .table
    public var cursorRow = 0
    public var scrollOffset = 0
    public var cursorColumn = 0
    public var mode: Mode = .browse

    /// Line editor for edit, filter and command modes.
    public var editor = LineEditor()
    /// Why the value in the editor cannot be saved (edit mode).
    public var editError: String?
    /// The unique attribute `D` asks a new value of, while in `.duplicate`.
    public var duplicatePrompt: DuplicatePrompt?
    /// How far `{`/`}` moved the detail pane's edge (`Layout.detailStepRange`).
    public var detailSteps = 0
    /// The new record's fields, while in `.form` (and the picker opened from it).
    public var form: RecordForm?
    /// The full-value viewer's document and place, while in `.pager`.
    public var pager: PagerState?
    /// That another writer changed or deleted the edited field since the editor opened
    /// (edit mode): shown until the editor closes; Enter then asks mine/theirs. Never a
    /// prompt of its own while typing, so no typed key can answer one.
    public var editNotice: String?
    /// Whether the edited attribute is optional (empty text = null); else the editor says it is required.
    public var editIsOptional = true

    public var filterText = ""
    public var filterError: ParseError?
    /// Why the last Enter in the `/` or `:` prompt was refused (unknown key, type
    /// mismatch, bad command): the prompt stays open with it, as with a syntax error.
    public var promptError: String?
    public var sort: VellumStore.QuerySortDescriptor?
    /// Sort keys after `sort` (`:sort name,-price`), in order.
    public var thenSort: [VellumStore.QuerySortDescriptor] = []
    /// Every sort key in order, the primary first.
    public var sortDescriptors: [VellumStore.QuerySortDescriptor] { (sort.map { [$0] } ?? []) + thenSort }

    public var statusMessage: String?
    /// How long `statusMessage` stays (`StatusKind`).
    public var statusKind: StatusKind = .info
    /// The long store work running off the main thread ("sorting"), while it runs: Esc or
    /// Ctrl-C cancels it, and the status bar says it runs.
    public var runningWork: String?
    /// The prompt the running work was typed in (it comes back if the work is refused).
    public var workPromptMode: Mode?
    public var statusIsError: Bool { statusKind == .error }
    /// The last status messages, oldest first (`:messages`), at most `messageLimit`.
    public var messages: [StatusEntry] = []
    public static let messageLimit = 100
    /// Lines of the `:messages` overlay scrolled up from its end (mode `.messages`).
    public var messagesScroll = 0
    /// Rows changed by other writers, highlighted until the given time.
    public var flashes: [ObjectID: Date] = [:]
    /// How long a row changed by another writer stays highlighted.
    public static let flashDuration: TimeInterval = 1.0
    /// Records per entity, in `entityNames` order (the sidebar shows them).
    public var entityCounts: [Int] = []
    /// Why an entity (by index) could not be counted; the sidebar shows ⚠ in place of its count.
    public var entityCountFailures: [Int: String] = [:]
    public var lastChange: Date?
    public var backStack: [Place] = []
    /// A relationship list's restriction (shown in the status bar).
    public var navigationTitle: String?
    /// Cursor over the detail pane's fields (attributes, then relationships).
    public var detailCursor = 0
    public var detailFieldCount = 0
    public var conflict: Conflict?
    /// Picker (to-one editing): the shown items and the cursor.
    public var picker = PickerList()
    public var pickerItems: [String] { picker.items }
    public var pickerCursor = 0
    public var pickerTitle = ""
    /// Who wrote last from outside (container.lastRemoteChange).
    public var lastWriter: String?
    public var lastWriteDate: Date?
    public var themeName = "default"
    /// First line of the `?` help shown (mode `.help`), when it is taller than the screen.
    public var helpScroll = 0
    /// Column summary overlay (mode `.summary`).
    public var summary: SummaryOverlay?
    /// Records the open "delete?" question would delete by cascade besides those asked for.
    public var deleteCascadeCount = 0
    /// `:export` waiting for a yes to replace an existing file (mode `.confirmReplace`).
    public var pendingExport: PendingExport?
    /// `:track`/`:track off` waiting for a yes, naming what would change (mode `.confirmTracking`).
    public var pendingTracking: TrackingQuestion?
    /// Text search (`f`, then `n`/`N`): the last searched text.
    public var searchText = ""
    /// `f` takes a regular expression (toggled in the prompt by `find-regex`).
    public var searchIsRegex = false
    /// The cell the last find landed on, marked while the cursor stays there.
    public var foundCell: FoundCell?
    /// `:group KEY`: the section key path of the table, nil when ungrouped.
    public var groupKey: String?
    /// Grouped tables: section names by the row index that starts the section.
    public var sectionHeaders: [Int: String] = [:] { didSet { sectionStarts = sectionHeaders.keys.sorted() } }
    /// The keys of `sectionHeaders`, in order (kept with them: a frame looks sections up by row).
    public private(set) var sectionStarts: [Int] = []
    /// `:group KEY sum(price)`: what each section header adds beside its count.
    public var sectionAggregate: SectionAggregate?
    /// That figure per section, by the header's name (as in `sectionHeaders`).
    public var sectionFigures: [String: String] = [:]
    /// Sections folded to their header line (`z`), by name, for the current grouping.
    public var collapsedSections: Set<String> = []
    /// Theme names offered by `:theme` completion.
    public var themeNames: [String] = []
    /// Whether clicks and the wheel come to the browser; off, the terminal keeps the
    /// mouse for its own text selection (`:mouse`, `--no-mouse`).
    public var mouseCapture = true
    /// Tab walking the `:` line's completion menu (nil while typing).
    public var completionCycle: CompletionCycle?
    /// Which key runs which command (the defaults, changed by the user's bindings file).
    public var keyMap = KeyMap.defaults
    /// Where the panels are (set by the loop on each draw), for mouse clicks.
    public var layout: Layout?
    /// Where the last frame drew the table's columns, for the mouse (a header's right edge).
    public var placedColumns: [ColumnPlacement.Placed] = []
    /// A header's right edge held down with the mouse: released, the column takes the new width.
    public var columnDrag: ColumnDrag?
    /// "Terminal too small" is shown: keys reach nothing (counted, so the screen can say so).
    public var terminalTooSmall = false
    public var ignoredKeys = 0
    /// Marked records (`t`, `T`, `*`, `~`): bulk edit and delete act on them; kept by ID,
    /// so rows that move stay marked. Cleared when another entity opens.
    public var marked: Set<ObjectID> = []
    /// The row last marked or unmarked with `t`, where `T` starts a range.
    public var markAnchorRow: Int?
    /// `:set VALUE` waiting for a yes: the column and the typed text.
    public var pendingBulkEdit: BulkEdit?
    /// The last yank's text (`y`, `Y`, `:yank`), pasted into the editor with ^Y.
    public var register = ""

    public init() {}

    /// The user is typing something not yet saved: an edit, a new record's form (and the
    /// picker opened from it), a copy's values, or a conflict's answer.
    public var holdsUnsavedInput: Bool {
        switch mode {
        case .edit, .form, .duplicate, .conflict: true
        default: form != nil
        }
    }

    public var currentEntityName: String? {
        entityNames.indices.contains(selectedEntity) ? entityNames[selectedEntity] : nil
    }

    public var currentColumnType: AttributeType? {
        columnTypes.indices.contains(cursorColumn) ? columnTypes[cursorColumn] : nil
    }

    public mutating func setStatus(_ message: String?, error: Bool = false) {
        setStatus(message, kind: error ? .error : StatusKind.of(message))
    }

    /// Shows `message` for as long as `kind` says, and keeps it in `messages`
    /// (a repeat of the last one is not kept twice).
    public mutating func setStatus(_ message: String?, kind: StatusKind) {
        statusMessage = message
        statusKind = kind
        guard let message else { return }
        let entry = StatusEntry(text: message, isError: kind == .error)
        if messages.last.map({ $0.text == entry.text && $0.isError == entry.isError }) == true { return }
        messages.append(entry)
        if messages.count > Self.messageLimit { messages.removeFirst(messages.count - Self.messageLimit) }
    }

    /// Keeps cursor and scroll inside the data and the cursor on screen.
    public mutating func clamp() {
        cursorRow = rowCount == 0 ? 0 : min(max(0, cursorRow), rowCount - 1)
        cursorColumn = columnNames.isEmpty ? 0 : min(max(0, cursorColumn), columnNames.count - 1)
        let page = max(1, pageSize)
        if cursorRow < scrollOffset { scrollOffset = cursorRow }
        if cursorRow >= scrollOffset + page { scrollOffset = cursorRow - page + 1 }
        scrollOffset = max(0, min(scrollOffset, max(0, rowCount - page)))
        sidebarCursor = entityNames.isEmpty ? 0 : min(max(0, sidebarCursor), entityNames.count - 1)
        detailCursor = detailFieldCount == 0 ? 0 : min(max(0, detailCursor), detailFieldCount - 1)
        pickerCursor = pickerItems.isEmpty ? 0 : min(max(0, pickerCursor), pickerItems.count - 1)
    }

    public mutating func expireFlashes(now: Date) -> Bool {
        let before = flashes.count
        flashes = flashes.filter { $0.value > now }
        return flashes.count != before
    }
}

/// How long a status message stays.
public enum StatusKind: Sendable, Equatable {
    /// Something that happened (`exported 200 rows`, `match 2 of 5`): true until the
    /// user moves on, so it goes with the next navigation or command in the list
    /// (a bound key or a mouse action), never with the clock.
    case info
    /// Work under way (`saving title…`, `sorting… (Esc or Ctrl-C cancels)`): stays until
    /// the work says how it ended.
    case progress
    /// Stays until the next key, so a look away does not miss it.
    case error
    /// The demo's first line (what to try): the whole status line, until the next key.
    case welcome

    /// `progress` for a message that says work is under way (it ends with "…" or the cancel hint).
    static func of(_ message: String?) -> StatusKind {
        guard let message else { return .info }
        return message.hasSuffix("…") || message.hasSuffix(Reducer.cancelHint) ? .progress : .info
    }

    /// Whether the next key takes the message away.
    var endsWithKey: Bool { self == .error || self == .welcome }
    /// Whether the next navigation or command in the list takes the message away.
    var endsWithCommand: Bool { self != .progress }
}

/// One status message as `:messages` lists it.
public struct StatusEntry: Sendable, Equatable {
    public var text: String
    public var isError: Bool
    /// The loop's clock at the first tick after the message was set (nil before it).
    public var time: Date?
}
