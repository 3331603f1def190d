import Foundation
import Testing
import VellumTestSupport

/// A browser whose terminal goes away — the window closed, ssh dropped, the tmux session
/// killed — ends, also when a shell script started it (then SIGHUP may not reach it):
/// it used to keep running with nobody to see it, polling the store, holding it open.
@Suite("E2E terminal gone", .serialized, .enabled(if: Tmux.path != nil, "tmux is not installed"))
struct E2ETerminalGoneTests {
    /// The browser's pid: the pane's shell's child (the script runs it, not execs it).
    static func browserPID(_ t: Tmux) -> Int32? {
        guard let shell = Int32(t.display("#{pane_pid}")) else { return nil }
        let children = (try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.first
    }

    static func running(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        return !stat.contains(") Z ")   // a zombie has ended
    }

    /// Killed while it shows a list whose filter is slow (the long-work tests' list), after
    /// a summary was started and cancelled: such sessions were left running by the suite.
    @Test func aBrowserEndsWhenItsTerminalIsKilledAfterCancelledWork() async throws {
        let test = E2ELongWorkCancelTests()
        let (_, t) = try test.slowList()
        t.keys("F")
        test.cancel(t, running: "summarizing", with: "Escape", outcome: "summary cancelled")
        let pid = try #require(Self.browserPID(t), "the browser's pid")
        #expect(Self.running(pid))
        t.kill()
        let ended = await waitUntil(timeout: 20) { !Self.running(pid) }
        if !ended { kill(pid, SIGKILL) }
        #expect(ended, "the browser (pid \(pid)) kept running after its terminal was gone")
    }

    /// Started by a script of two commands (the shell stays and runs it as its child), at
    /// both sizes.
    @Test(arguments: [(80, 24), (120, 40)])
    func aBrowserStartedByAScriptEndsWhenItsTerminalIsKilled(width: Int, height: Int) async throws {
        let dir = TempDir()
        _ = try Fixtures.openShop(dir)
        let t = Tmux("cd '\(dir.url.path)' && '\(VellumBinary.url.path)' shop.sqlite; true", width: width, height: height)
        #expect(t.wait(for: "Entities"), "\(t.screen)")
        let pid = try #require(Self.browserPID(t), "the browser's pid")
        t.kill()
        let ended = await waitUntil(timeout: 20) { !Self.running(pid) }
        if !ended { kill(pid, SIGKILL) }
        #expect(ended, "the browser (pid \(pid)) kept running after its terminal was gone")
    }
}
