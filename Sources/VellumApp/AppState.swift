import Foundation
import VellumStore

/// Everything the view shows, owned by the event loop and changed by the
/// reducer (keys) or the loop (store events). Widgets only read it.
public struct AppState: Sendable {
    public enum Mode: Sendable, Equatable {
        case browse, edit, filter, command, help, confirmDelete
    }
    public enum Focus: Sendable, Equatable { case sidebar, table }

    /// Facts about the data the reducer needs for cursor arithmetic.
    public var entityNames: [String] = []
    public var columnNames: [String] = []
    public var columnTypes: [AttributeType] = []
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

    public var filterText = ""
    public var filterError: ParseError?
    public var sort: VellumStore.SortDescriptor?

    public var statusMessage: String?
    public var statusIsError = false
    /// Rows changed by other writers, highlighted until the given time.
    public var flashes: [ObjectID: Date] = [:]
    public var lastChange: Date?
    public var backStack: [Int] = []
    public var themeName = "default"

    public init() {}

    public var currentEntityName: String? {
        entityNames.indices.contains(selectedEntity) ? entityNames[selectedEntity] : nil
    }

    public var currentColumnType: AttributeType? {
        columnTypes.indices.contains(cursorColumn) ? columnTypes[cursorColumn] : nil
    }

    public mutating func setStatus(_ message: String?, error: Bool = false) {
        statusMessage = message
        statusIsError = error
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
    }

    /// Earliest flash expiry, so the loop knows when to redraw.
    public func nextFlashExpiry() -> Date? { flashes.values.min() }

    public mutating func expireFlashes(now: Date) -> Bool {
        let before = flashes.count
        flashes = flashes.filter { $0.value > now }
        return flashes.count != before
    }
}
