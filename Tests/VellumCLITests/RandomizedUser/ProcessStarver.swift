import Foundation
import Testing

/// Starves a process of CPU the way a loaded machine does, but predictably: stops it
/// (SIGSTOP) for `stopped` seconds out of every `stopped + running`, until `stop()`.
final class ProcessStarver: @unchecked Sendable {
    private let lock = NSLock()
    private var stopRequested = false
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t, stopped: TimeInterval = 0.2, running: TimeInterval = 0.05) {
        // kill(0 or less) would signal a whole process group: the test runner's own.
        guard pid > 0 else { stopRequested = true; return }
        let thread = Thread { [self] in
            while !lock.withLock({ stopRequested }) {
                kill(pid, SIGSTOP)
                Thread.sleep(forTimeInterval: stopped)
                kill(pid, SIGCONT)
                Thread.sleep(forTimeInterval: running)
            }
            kill(pid, SIGCONT)
            done.signal()
        }
        thread.start()
    }

    /// Lets the process run freely again (idempotent).
    func stop() {
        let first = lock.withLock { () -> Bool in
            defer { stopRequested = true }
            return !stopRequested
        }
        if first { done.wait() }
    }
}

extension Tmux {
    /// The process the pane's shell started (the browser), found by its parent.
    func browserPID() -> pid_t {
        let shell = display("#{pane_pid}")
        for _ in 0..<100 {
            let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            for name in processes {
                guard let pid = pid_t(name),
                      let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                      let close = stat.range(of: ")", options: .backwards) else { continue }
                // After "pid (comm)": state, then the parent's pid.
                let fields = stat[close.upperBound...].split(separator: " ")
                if fields.count > 1, String(fields[1]) == shell { return pid }
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Issue.record("no process under the pane's shell \(shell)")
        return 0
    }
}
