import Foundation
import Testing
@testable import VellumApp
import VellumStore
import VellumTerminal

/// The reducer as a pure function of inputs other than keys: store events, the
/// clock and the terminal change the state here, with no terminal and no store.
@Suite struct ReducerInputTests {
    static func id(_ pk: Int64) -> ObjectID {
        ObjectID(entityName: "Task", rootName: "Task", key: .permanent(pk), storeIdentifier: "S")
    }

    static func reduce(_ state: inout AppState, _ inputs: Input...) -> [Effect] {
        inputs.flatMap { Reducer.reduce(&state, $0) }
    }

    @Test func recordsChangedElsewhereFlashUntilTheTickAfterTheirTime() {
        var s = AppState()
        let at = Date(timeIntervalSince1970: 1_000)
        #expect(Self.reduce(&s, .store(.changedElsewhere([Self.id(1), Self.id(2)], at: at))).isEmpty)
        #expect(s.flashes == [Self.id(1): at.addingTimeInterval(AppState.flashDuration), Self.id(2): at.addingTimeInterval(AppState.flashDuration)])
        #expect(s.lastChange == at)
        _ = Self.reduce(&s, .tick(at.addingTimeInterval(AppState.flashDuration / 2)))
        #expect(s.flashes.count == 2)
        _ = Self.reduce(&s, .tick(at.addingTimeInterval(AppState.flashDuration)))
        #expect(s.flashes.isEmpty)
    }

    @Test func theLastOutsideWriterIsNamedOrCalledAnotherProcess() {
        var s = AppState()
        let at = Date(timeIntervalSince1970: 5)
        _ = Self.reduce(&s, .store(.remoteWriter(author: "writer-3", at: at)))
        #expect(s.lastWriter == "writer-3" && s.lastWriteDate == at)
        _ = Self.reduce(&s, .store(.remoteWriter(author: nil, at: at)))
        #expect(s.lastWriter == "another process")
    }

    @Test func countsChangeOnlyForTheEntitiesRecounted() {
        var s = AppState()
        s.entityNames = ["Image", "Product", "Task"]
        _ = Self.reduce(&s, .store(.counted([0: 67, 1: 200, 2: 30])))
        #expect(s.entityCounts == [67, 200, 30])
        _ = Self.reduce(&s, .store(.counted([2: 31])))
        #expect(s.entityCounts == [67, 200, 31])
    }

    @Test func savesAndFailuresSayWhatHappened() {
        var s = AppState()
        _ = Self.reduce(&s, .store(.saved("saved title")))
        #expect(s.statusMessage == "saved title" && !s.statusIsError)
        _ = Self.reduce(&s, .store(.saveFailed("price: below the minimum 0")))
        #expect(s.statusMessage == "price: below the minimum 0" && s.statusIsError)
        _ = Self.reduce(&s, .store(.mergeFailed("disk I/O error")))
        #expect(s.statusMessage == "merge failed: disk I/O error" && s.statusIsError)
    }

    @Test func theLayoutSetsThePageAndKeepsTheCursorOnScreen() {
        var s = AppState()
        s.rowCount = 500
        s.cursorRow = 400
        let layout = Layout(size: TerminalSize(rows: 24, columns: 80))
        _ = Self.reduce(&s, .layout(layout))
        #expect(s.pageSize == layout.visibleRows)
        #expect(s.scrollOffset <= s.cursorRow && s.cursorRow < s.scrollOffset + s.pageSize)
    }

    @Test func aTooSmallTerminalIgnoresKeysAndCountsThemAfresh() {
        var s = AppState()
        s.rowCount = 10
        _ = Self.reduce(&s, .terminalTooSmall(true))
        #expect(Self.reduce(&s, .key(.char("j")), .key(.char("q"))).isEmpty)
        #expect(s.cursorRow == 0 && s.ignoredKeys == 2)
        _ = Self.reduce(&s, .terminalTooSmall(true))     // unchanged: the count stays
        #expect(s.ignoredKeys == 2)
        _ = Self.reduce(&s, .terminalTooSmall(false), .key(.char("j")))
        #expect(s.cursorRow == 1 && s.ignoredKeys == 0)
    }

    @Test func aThemeLoadedSaysSoUnlessAtStartUp() {
        var s = AppState()
        _ = Self.reduce(&s, .themeLoaded(name: "solarized", error: nil, quietly: true))
        #expect(s.themeName == "solarized" && s.statusMessage == nil)
        _ = Self.reduce(&s, .themeLoaded(name: "nord", error: nil))
        #expect(s.themeName == "nord" && s.statusMessage == "theme nord")
        _ = Self.reduce(&s, .themeLoaded(name: "default", error: "no theme 'x'"))
        #expect(s.themeName == "default" && s.statusMessage == "theme: no theme 'x' — using default" && s.statusIsError)
    }

    @Test func keysThatAskTheTerminalAreEffectsTheLoopReceives() {
        var s = AppState()
        #expect(Self.reduce(&s, .key(.char("q"))).compactMap(TerminalRequest.init) == [.quit])
    }
}

/// The to-one picker: its candidates are state, searched by the reducer as keys arrive.
@Suite struct ReducerPickerTests {
    static let names = ["Kyoto Crafts", "Baltic Amber", "Maison Dubois"]

    static func opened(current: Int?) -> AppState {
        var s = AppState()
        let candidates = names.enumerated().map { PickerList.Candidate(id: ReducerInputTests.id(Int64($0.offset + 1)), name: $0.element) }
        _ = Reducer.reduce(&s, .pickerOpened(title: "provider of Teapot → Provider", candidates: candidates,
                                             current: current.map { ReducerInputTests.id(Int64($0)) }))
        return s
    }

    @Test func opensOnTheCurrentTargetOrOnNone() {
        let s = Self.opened(current: 2)
        #expect(s.mode == .picker && s.pickerTitle == "provider of Teapot → Provider")
        #expect(s.pickerItems == ["∅ (none)"] + Self.names)
        #expect(s.pickerItems[s.pickerCursor] == "Baltic Amber")
        #expect(Self.opened(current: nil).pickerCursor == 0)
    }

    @Test func searchingListsMatchesAndHighlightsTheFirst() {
        var s = Self.opened(current: nil)
        for c in "O" { #expect(Reducer.reduce(&s, .key(.char(c))).isEmpty) }
        #expect(s.pickerItems == ["∅ (none)", "Kyoto Crafts", "Maison Dubois"])
        #expect(s.pickerCursor == 1)
        #expect(s.picker.shown[s.pickerCursor] == ReducerInputTests.id(1))
        for c in "zz" { _ = Reducer.reduce(&s, .key(.char(c))) }
        #expect(s.pickerItems == ["∅ (none)"] && s.pickerCursor == 0)
        #expect(Reducer.reduce(&s, .key(.enter)) == [.pickerChoose])
    }
}
