import Foundation
import Testing
import VellumApp
import VellumStore

/// Issue 17: mouse capture can be turned off, in the real binary. tmux knows whether
/// the program in a pane asked for mouse reports (`#{mouse_any_flag}`…), which is
/// what decides whether the terminal's own selection works.
@Suite("E2E mouse capture", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2EMouseCaptureTests {
    /// Whether the pane's program asked for any mouse reporting.
    func capturing(_ t: Tmux) -> Bool {
        let flags = t.tmux(["display", "-p", "-t", t.name, "#{mouse_standard_flag}#{mouse_button_flag}#{mouse_any_flag}"]).out
        return flags.contains("1")
    }

    @Test func mouseOffLeavesTheMouseToTheTerminalAndOnTakesItBack() throws {
        let store = try E2EStore()
        let t = Tmux.browser(store.command, entity: "Product", width: 80, height: 24)
        defer { t.kill() }
        #expect(t.wait(for: "row 1/"), "\(t.screen)")
        #expect(capturing(t), "the browser captures the mouse by default")
        t.keys(":"); t.type("mouse off"); t.keys("Enter")
        #expect(t.wait(for: "mouse off"), "\(t.screen)")
        #expect(t.wait(5) { _ in !capturing(t) }, "after :mouse off the pane still asks for mouse reports")
        t.keys(":"); t.type("mouse on"); t.keys("Enter")
        #expect(t.wait(for: "mouse on"), "\(t.screen)")
        #expect(t.wait(5) { _ in capturing(t) })
    }

    @Test func noMouseStartsWithTheMouseLeftToTheTerminal() throws {
        let store = try E2EStore()
        let t = Tmux(store.command + " --no-mouse", width: 120, height: 40)
        defer { t.kill() }
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!capturing(t), "--no-mouse still asked for mouse reports")
        // `:mouse` with no word turns it on.
        t.keys(":"); t.type("mouse"); t.keys("Enter")
        #expect(t.wait(for: "mouse on"), "\(t.screen)")
        #expect(t.wait(5) { _ in capturing(t) })
    }
}
