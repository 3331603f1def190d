import Foundation
import Testing

/// The CI run that never finished: servers the tests start (tmux, PostgreSQL) were
/// handed every open descriptor of the test process, so a test reading the `sqlite3`
/// shell's output to end-of-file waited for as long as the server lived.
@Suite struct CleanSpawnTests {
    /// A pipe open in this process while the helper starts, as another test's would be.
    private func withOpenPipe(_ body: (String) throws -> Void) rethrows {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let target = CleanSpawn.descriptors(of: getpid())[fds[1]] ?? "?"
        #expect(target.hasPrefix("pipe:"))
        try body(target)
    }

    @Test func spawnedChildHoldsOnlyItsStandardDescriptors() throws {
        try withOpenPipe { _ in
            let pid = try CleanSpawn.spawn(["/bin/sleep", "5"])
            defer { kill(pid, SIGKILL); _ = CleanSpawn.wait(pid) }
            waitUntilTrue { CleanSpawn.descriptors(of: pid).count == 3 || !FileManager.default.fileExists(atPath: "/proc/\(pid)") }
            let held = CleanSpawn.descriptors(of: pid)
            #expect(Set(held.keys) == [0, 1, 2], "the child holds \(held.sorted { $0.key < $1.key })")
        }
    }

    @Test func tmuxServerInheritsNoPipeOfTheTestProcess() {
        let socket = "vellum-fd-\(UUID().uuidString.prefix(8))"
        defer { Tmux.run(Tmux.path!, ["-L", socket, "kill-server"]) }
        withOpenPipe { pipeTarget in
            #expect(Tmux.run(Tmux.path!, ["-L", socket, "new-session", "-d", "-s", "fd", "sleep 60"]).status == 0)
            let serverPID = pid_t(Tmux.run(Tmux.path!, ["-L", socket, "display", "-p", "-t", "fd", "#{pid}"]).out
                .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(serverPID > 0)
            let held = CleanSpawn.descriptors(of: serverPID).values
            #expect(!held.contains(pipeTarget), "the tmux server holds this process's pipe \(pipeTarget)")
        }
    }
}

/// Polls `condition` for up to 10 s (the child may not have exec'd yet).
private func waitUntilTrue(_ condition: () -> Bool) {
    let deadline = Date().addingTimeInterval(10)
    while !condition() && Date() < deadline { usleep(10_000) }
}
