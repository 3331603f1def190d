import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// What the effect runner found comes back as an input: the reducer alone turns
/// it into state (navigation, the editor, conflicts, queries), with no store.
@Suite struct ReducerResultTests {
    static func listed(_ rows: Int = 20) -> AppState {
        var s = AppState()
        _ = Reducer.reduce(&s, .result(.storeOpened(entityNames: ["Product", "Provider"], themeNames: ["default"])))
        _ = Reducer.reduce(&s, .listShown(ListShown(entityIndex: 0, title: nil, columnNames: ["name", "price"],
                                                    columnTypes: [.string, .double], detailFieldCount: 3,
                                                    rowCount: rows, cursorRow: nil, error: nil)))
        return s
    }

    @Test func leavingAListPushesItsPlaceAndStartsTheNextUnfilteredAtTheTop() {
        var s = Self.listed()
        s.filterText = "price > 3"
        _ = Reducer.reduce(&s, .key(.char("j")))
        _ = Reducer.reduce(&s, .key(.char("j")))
        let place = AppState.Place(entityIndex: 0, basePredicate: nil, title: nil, filterText: "price > 3", sort: nil, selected: nil)
        #expect(Reducer.reduce(&s, .result(.leftList(place))).isEmpty)
        #expect(s.backStack == [place])
        #expect(s.filterText == "" && s.cursorRow == 0 && s.focus == .table)
        _ = Reducer.reduce(&s, .result(.wentBack))
        #expect(s.backStack.isEmpty && s.filterText == "price > 3")
    }

    @Test func theEditorOpensWithTheValueAndKeepsTypedTextWhenRefused() {
        var s = Self.listed()
        _ = Reducer.reduce(&s, .result(.editBegan(text: "Ada", isOptional: false, hint: "text")))
        #expect(s.mode == .edit && s.editor.text == "Ada" && !s.editIsOptional && s.statusMessage == "text")
        _ = Reducer.reduce(&s, .key(.char("x")))
        #expect(Reducer.reduce(&s, .key(.enter)) == [.commitEdit("Adax")])
        _ = Reducer.reduce(&s, .result(.editRefused("too long")))
        #expect(s.mode == .edit && s.editError == "too long" && s.editor.text == "Adax")
        _ = Reducer.reduce(&s, .result(.backToBrowse))
        #expect(s.mode == .browse && s.editError == nil)
    }

    @Test func aConflictPromptsAndItsAnswerIsAnEffect() {
        var s = Self.listed()
        let conflict = AppState.Conflict(key: "name", mine: "Ada", theirs: "Bea", deleted: false, author: "cli")
        _ = Reducer.reduce(&s, .result(.conflictFound(conflict)))
        #expect(s.mode == .conflict && s.conflict == conflict)
        #expect(Reducer.reduce(&s, .key(.char("m"))) == [.resolveConflict(keepMine: true)])
    }

    @Test func aRefusedFilterKeepsThePromptOpenWithTheReasonAndAnAppliedOneClosesIt() {
        var s = Self.listed()
        _ = Reducer.reduce(&s, .key(.char("/")))
        for c in "nope == 1" { _ = Reducer.reduce(&s, .key(.char(c))) }
        #expect(Reducer.reduce(&s, .key(.enter)) == [.applyFilter("nope == 1")])
        _ = Reducer.reduce(&s, .result(.queryRefused("no key nope", what: "filter", cancelled: false)))
        #expect(s.mode == .filter && s.promptError == "filter: no key nope" && s.filterText == "")
        _ = Reducer.reduce(&s, .result(.queryApplied(filter: "price > 1", sort: nil, atTop: true)))
        #expect(s.mode == .browse && s.promptError == nil && s.filterText == "price > 1")
    }

    @Test func aRunningQueryShowsTheListThenGivesThePromptBack() {
        var s = Self.listed()
        _ = Reducer.reduce(&s, .key(.char("/")))
        _ = Reducer.reduce(&s, .result(.workStarted("filtering")))
        #expect(s.mode == .browse && s.statusMessage?.hasPrefix("filtering") == true && s.runningWork == "filtering")
        _ = Reducer.reduce(&s, .result(.workEnded))
        #expect(s.mode == .filter && s.statusMessage == nil && s.runningWork == nil)
        _ = Reducer.reduce(&s, .result(.queryRefused("cancelled", what: "sort", cancelled: true)))
        #expect(s.mode == .browse && s.statusIsError && s.statusMessage == "sort cancelled; the list is unchanged")
    }

    @Test func anExportOverAnExistingFileWaitsForAYes() {
        var s = Self.listed()
        _ = Reducer.reduce(&s, .result(.exportNeedsConfirmation(PendingExport(format: "csv", path: "/tmp/x.csv"))))
        #expect(s.mode == .confirmReplace && s.statusMessage == "/tmp/x.csv exists; replace it? y/n")
        #expect(Reducer.reduce(&s, .key(.char("y"))) == [.export(format: "csv", path: "/tmp/x.csv", replacing: true)])
    }
}

/// Entity counts from merged saves: the reducer adds inserts and takes off deletes.
@Suite struct EntityCountDeltaTests {
    @Test func countsGrowAndShrinkByTheMergedInsertsAndDeletes() {
        var s = AppState()
        _ = Reducer.reduce(&s, .store(.counted([0: 67, 1: 200, 2: 30])))
        _ = Reducer.reduce(&s, .store(.countsChanged([2: 1, 0: -3])))
        #expect(s.entityCounts == [64, 200, 31])
        _ = Reducer.reduce(&s, .store(.countsChanged([1: -500, 7: 2])))
        #expect(s.entityCounts == [64, 0, 31])
    }
}
