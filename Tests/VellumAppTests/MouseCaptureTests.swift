import Foundation
import Testing
@testable import VellumApp

/// Issue 17: "with mouse support on, the terminal's own text selection still works with
/// Shift (documented), and mouse capture can be turned off".
struct MouseCaptureTests {
    func state() -> AppState {
        var s = AppState()
        s.entityNames = ["Product"]
        s.columnNames = ["name"]
        s.rowCount = 3
        return s
    }

    @Test func mouseCommandTurnsCaptureOffAndOnAndSaysHowToSelectText() {
        var s = state()
        #expect(s.mouseCapture)
        #expect(Reducer.runCommand(&s, "mouse off") == [.setMouseCapture(false)])
        #expect(!s.mouseCapture && s.statusMessage?.hasPrefix("mouse off: the terminal selects text") == true)
        #expect(Reducer.runCommand(&s, "mouse") == [.setMouseCapture(true)], "no word: the other one")
        #expect(s.mouseCapture && s.statusMessage?.contains("hold Shift to select text") == true)
        #expect(Reducer.runCommand(&s, "mouse ON") == [.setMouseCapture(true)])
        #expect(Reducer.runCommand(&s, "mouse sideways") == [] && s.statusIsError && s.mouseCapture)
        #expect(s.statusMessage == "mouse: 'sideways' is neither on nor off")
        #expect(CompletionMenu(line: "mouse ", in: s)?.matches == ["on", "off"])
        // The effect is a terminal request, for the loop (not the store's runner).
        #expect(TerminalRequest(.setMouseCapture(false)) == .setMouseCapture(false))
    }

    @Test func startingWithoutTheMouseIsKnownToTheToggle() {
        var s = state()
        _ = Reducer.reduce(&s, .mouseCaptureStarted(false))
        #expect(!s.mouseCapture)
        #expect(Reducer.runCommand(&s, "mouse") == [.setMouseCapture(true)])
    }

    @Test func theShiftSelectionIsDocumented() {
        #expect(KeyBindings.markdown().contains("text selection works with Shift held"))
        #expect(KeyBindings.markdown().contains("--no-mouse"))
    }
}
