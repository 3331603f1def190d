import Foundation
import Testing
@testable import VellumApp
import VellumStore

/// Lists opened and rows moved, as inputs: the reducer alone puts them on screen.
@Suite struct ReducerListTests {
    static func list(rows: Int, cursor: Int?, error: String? = nil) -> ListShown {
        ListShown(entityIndex: 1, title: "products of Kyoto Crafts", columnNames: ["name", "price"],
                  columnTypes: [.string, .double], detailFieldCount: 4, rowCount: rows, cursorRow: cursor, error: error)
    }

    @Test func aListShownResetsTheDetailPaneAndSelectsTheAskedRow() {
        var s = AppState()
        s.entityNames = ["Image", "Product"]
        s.detailCursor = 3; s.groupKey = "price"; s.sectionHeaders = [0: "x (1)"]
        #expect(Reducer.reduce(&s, .listShown(Self.list(rows: 19, cursor: 7))).isEmpty)
        #expect(s.selectedEntity == 1 && s.sidebarCursor == 1 && s.currentEntityName == "Product")
        #expect(s.navigationTitle == "products of Kyoto Crafts")
        #expect(s.columnNames == ["name", "price"] && s.columnTypes == [.string, .double])
        #expect(s.detailFieldCount == 4 && s.detailCursor == 0 && s.groupKey == nil && s.sectionHeaders.isEmpty)
        #expect(s.rowCount == 19 && s.cursorRow == 7 && s.statusMessage == nil)
    }

    @Test func aListThatCannotBeReadShowsEmptyAndSaysWhy() {
        var s = AppState()
        s.entityNames = ["Image", "Product"]
        s.cursorRow = 5
        _ = Reducer.reduce(&s, .listShown(Self.list(rows: 0, cursor: nil, error: "no such column: price")))
        #expect(s.rowCount == 0 && s.cursorRow == 0)
        #expect(s.statusMessage == "no such column: price" && s.statusIsError)
    }

    @Test func theCursorFollowsTheSelectedRecordWhenRowsMove() {
        var s = AppState()
        s.columnNames = ["name"]
        s.rowCount = 10; s.cursorRow = 4
        _ = Reducer.reduce(&s, .rowsChanged(RowsChanged(rowCount: 11, selectedRow: 5, sectionHeaders: [0: "a (6)", 6: "b (5)"])))
        #expect(s.cursorRow == 5 && s.rowCount == 11 && s.sectionHeaders == [0: "a (6)", 6: "b (5)"])
        // The record left the list: the cursor stays where it was, inside the rows.
        _ = Reducer.reduce(&s, .rowsChanged(RowsChanged(rowCount: 3, selectedRow: nil, sectionHeaders: [:])))
        #expect(s.rowCount == 3 && s.cursorRow == 2)
    }
}
