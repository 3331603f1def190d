import Testing
@testable import VellumApp
import VellumTerminal

/// Issue 17: jump to a row (`:123`, `123G`) and walk the jumps back (`[`) and forward (`]`).
@Suite struct JumpTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product"]
        s.columnNames = ["name", "price"]
        s.columnTypes = [.string, .double]
        s.rowCount = 200
        s.pageSize = 10
        return s
    }

    func keys(_ s: inout AppState, _ text: String) { for c in text { _ = Reducer.update(&s, key: .char(c)) } }

    @Test func countThenGGoesToThatRow() {
        var s = state()
        keys(&s, "123")
        #expect(s.statusMessage == "123 — G goes to row 123")
        keys(&s, "G")
        #expect(s.cursorRow == 122 && s.countPrefix.isEmpty && s.statusMessage == nil)
        keys(&s, "j")
        #expect(s.cursorRow == 123)   // the count was used up
        keys(&s, "999G")
        #expect(s.cursorRow == 123 && s.statusIsError && s.statusMessage?.contains("no row 999") == true)
        keys(&s, "5j")                // a count before another key is dropped, not kept for later
        keys(&s, "G")
        #expect(s.cursorRow == 199)
    }

    @Test func colonNumberGoesToThatRow() {
        var s = state()
        _ = Reducer.update(&s, key: .char(":"))
        keys(&s, "42")
        _ = Reducer.update(&s, key: .enter)
        #expect(s.cursorRow == 41 && s.mode == .browse)
        _ = Reducer.update(&s, key: .char(":"))
        keys(&s, "0")
        _ = Reducer.update(&s, key: .enter)
        #expect(s.mode == .command && s.promptError?.contains("no row 0") == true)
    }

    @Test func jumpsGoBackAndForward() {
        var s = state()
        keys(&s, "50G")
        keys(&s, "j")                 // 51st row
        keys(&s, "G")                 // last
        keys(&s, "[")
        #expect(s.cursorRow == 50)
        keys(&s, "[")
        #expect(s.cursorRow == 0)
        keys(&s, "[")
        #expect(s.cursorRow == 0 && s.statusMessage == "no earlier jump")
        keys(&s, "]")
        #expect(s.cursorRow == 50)
        keys(&s, "]")
        #expect(s.cursorRow == 199)
        keys(&s, "]")
        #expect(s.statusMessage == "no later jump")
    }

    @Test func aFirstZeroIsTheFirstColumnKey() {
        var s = state()
        keys(&s, "l")
        #expect(s.cursorColumn == 1)
        keys(&s, "0")
        #expect(s.cursorColumn == 0 && s.countPrefix.isEmpty)
        keys(&s, "10G")
        #expect(s.cursorRow == 9)
    }
}
