import VellumStore
import VellumTerminal

extension AppState {
    /// The open entity's column layout (empty when the user arranged nothing).
    public var currentColumnLayout: ColumnLayout {
        currentEntityName.flatMap { columnLayouts[$0] } ?? ColumnLayout()
    }
}

/// Column commands: hide and bring back (the `C` list), resize, reorder, first
/// and last column. Each change is kept per entity in the user's state
/// directory (`Effect.saveColumnLayout`), never in the store.
extension Reducer {
    /// A list was shown: its entity's columns, arranged as the user left them.
    static func adoptColumns(_ list: ListShown, in s: inout AppState) {
        s.allColumnNames = list.columnNames
        s.allColumnTypes = list.columnTypes
        s.relationshipColumns = Dictionary(list.relationshipColumns.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        if let saved = list.columnLayout, let entity = s.currentEntityName, s.columnLayouts[entity] == nil {
            s.columnLayouts[entity] = saved
        }
        for (entity, saved) in list.otherColumnLayouts where s.columnLayouts[entity] == nil { s.columnLayouts[entity] = saved }
        arrangeColumns(&s, keeping: list.cursorColumn)
    }

    /// `columnNames`/`columnTypes` from all columns and the layout; the cursor stays on its column.
    static func arrangeColumns(_ s: inout AppState, keeping name: String? = nil) {
        let types = Dictionary(zip(s.allColumnNames, s.allColumnTypes), uniquingKeysWith: { a, _ in a })
        s.columnNames = s.currentColumnLayout.shown(s.allColumnNames)
        s.columnTypes = s.columnNames.compactMap { types[$0] }
        if let name, let at = s.columnNames.firstIndex(of: name) { s.cursorColumn = at }
        s.clamp()
    }

    static func columns(_ s: inout AppState, _ action: KeyAction) -> [Effect] {
        switch action {
        case .firstColumn: s.cursorColumn = 0
        case .lastColumn: s.cursorColumn = s.columnNames.count - 1
        case .columnList:
            guard !s.allColumnNames.isEmpty else { return [] }
            let current = s.columnNames.indices.contains(s.cursorColumn) ? s.columnNames[s.cursorColumn] : nil
            s.columnListCursor = current.flatMap(s.currentColumnLayout.ordered(s.allColumnNames).firstIndex(of:)) ?? 0
            s.mode = .columnList
        default:
            guard s.columnNames.indices.contains(s.cursorColumn) else { return [] }
            return change(&s, column: s.columnNames[s.cursorColumn], action)
        }
        s.clamp()
        return []
    }

    private static func change(_ s: inout AppState, column name: String, _ action: KeyAction) -> [Effect] {
        var layout = s.currentColumnLayout
        switch action {
        case .hideColumn:
            guard hide(name, in: &layout, &s) else { return [] }
            s.setStatus("\(name) hidden — C lists the columns to bring it back")
        case .narrowColumn, .widenColumn:
            let step = action == .widenColumn ? ColumnLayout.resizeStep : -ColumnLayout.resizeStep
            let range = ColumnLayout.widthChangeRange
            layout.widthChanges[name] = min(range.upperBound, max(range.lowerBound, (layout.widthChanges[name] ?? 0) + step))
        case .moveColumnLeft: layout.move(name, by: -1, in: s.allColumnNames)
        case .moveColumnRight: layout.move(name, by: 1, in: s.allColumnNames)
        default: return []
        }
        return save(layout, &s, keeping: name)
    }

    /// A press on the header: on a column's right edge (its last cell or the gap after it) it
    /// starts a resize that the release finishes; elsewhere on a title it chooses that column.
    static func headerPressed(_ s: inout AppState, at x: Int) -> [Effect] {
        s.columnDrag = nil
        if let edge = s.placedColumns.first(where: { $0.hasRightEdge(at: x) }) {
            s.columnDrag = ColumnDrag(column: edge.name, fromX: x, width: edge.width, naturalWidth: edge.naturalWidth)
        } else if let column = s.placedColumns.first(where: { x >= $0.x && x < $0.x + $0.width }) {
            choose(column.name, &s)
        }
        return []
    }

    /// The button let go after a press on a header edge: the column takes the width the
    /// edge was moved to (kept in the entity's column layout, as `<` and `>` keep theirs).
    static func columnDragEnded(_ s: inout AppState, at x: Int) -> [Effect] {
        guard let drag = s.columnDrag else { return [] }
        s.columnDrag = nil
        guard x != drag.fromX else {
            choose(drag.column, &s)   // let go where pressed: a click on the title's last cell
            return []
        }
        var layout = s.currentColumnLayout
        let change = drag.widthChange(releasedAt: x)
        layout.widthChanges[drag.column] = change
        s.setStatus("\(drag.column) is \(max(1, drag.naturalWidth + change)) wide (< and > resize from the keyboard)")
        return save(layout, &s, keeping: drag.column)
    }

    private static func choose(_ column: String, _ s: inout AppState) {
        guard let index = s.columnNames.firstIndex(of: column) else { return }
        s.focus = .table
        s.cursorColumn = index
    }

    /// Hides `name` unless it is the last column shown.
    private static func hide(_ name: String, in layout: inout ColumnLayout, _ s: inout AppState) -> Bool {
        guard layout.shown(s.allColumnNames).count > 1 else {
            s.setStatus("\(name) is the only column shown: it stays", error: true)
            return false
        }
        layout.hidden.insert(name)
        return true
    }

    private static func save(_ layout: ColumnLayout, _ s: inout AppState, keeping name: String?) -> [Effect] {
        guard let entity = s.currentEntityName, layout != s.currentColumnLayout else { return [] }
        s.columnLayouts[entity] = layout
        arrangeColumns(&s, keeping: name)
        return [.saveColumnLayout(entity: entity, layout)]
    }

    /// The `C` list: j/k (↑/↓) choose, Space or Enter hides or shows, Esc, q or C closes.
    static func columnList(_ s: inout AppState, _ key: VellumTerminal.Key) -> [Effect] {
        let names = s.currentColumnLayout.ordered(s.allColumnNames)
        // Its own keys first (Space, Enter, Esc, q, C), then the list keys that move.
        let own = s.keyMap.modeAction(for: key, in: .columns)
        switch (own, own == nil ? s.keyMap.action(for: key) : nil) {
        case (_, .moveDown?): s.columnListCursor = min(names.count - 1, s.columnListCursor + 1)
        case (_, .moveUp?): s.columnListCursor = max(0, s.columnListCursor - 1)
        case (.columnsToggle?, _):
            guard names.indices.contains(s.columnListCursor) else { return [] }
            let name = names[s.columnListCursor]
            var layout = s.currentColumnLayout
            if layout.hidden.contains(name) {
                layout.hidden.remove(name)
                s.setStatus("\(name) shown")
            } else {
                guard hide(name, in: &layout, &s) else { return [] }
                s.setStatus("\(name) hidden")
            }
            let current = s.columnNames.indices.contains(s.cursorColumn) ? s.columnNames[s.cursorColumn] : nil
            return save(layout, &s, keeping: current == name ? nil : current)
        case (.columnsClose?, _):
            s.mode = .browse
        default: break
        }
        return []
    }
}
