import Foundation
import Testing

/// Drives the real `vellum` binary in tmux: keys in with `send-keys`, the
/// screen out with `capture-pane`.
public final class Tmux {
    public static let path: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    public let name: String

    /// Runs a tool and returns its exit status and output. Not Foundation's Process
    /// (it has been seen to miss a tmux client's exit); output in a temporary file
    /// rather than a pipe, and no other descriptor passed on: the tmux server that
    /// `new-session` starts would keep them open (`CleanSpawn`).
    @discardableResult
    public static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, out: String) {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-e2e-out-\(UUID().uuidString)").path
        defer { unlink(file) }
        let outPath = arguments.first == "new-session" ? "/dev/null" : file
        let pid: pid_t
        do { pid = try CleanSpawn.spawn([executable] + arguments, output: outPath, truncate: true) } catch { return (-1, "\(error)") }
        let status = CleanSpawn.wait(pid)
        return (status, (try? String(contentsOfFile: file, encoding: .utf8)) ?? "")
    }

    /// Starts `command` (a shell command line) in a detached 120x40 session.
    /// A tmux server of the test process's own, so tests never touch (or are
    /// touched by) a user's sessions or another test run.
    public static let socket = "vellum-e2e-\(getpid())"

    /// Where a ThreadSanitizer build of the programs run in the session (the suite under
    /// `swift test --sanitize=thread`) writes its reports: into files, never onto the
    /// screen the test reads; `kill()` fails the test with any report found there.
    public let sanitizerReports: URL
    private var reportsChecked = false

    public init(_ command: String, width: Int = 120, height: Int = 40) {
        name = "vellum-e2e-\(UUID().uuidString.prefix(8))"
        sanitizerReports = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-sanitizer")
        try? FileManager.default.createDirectory(at: sanitizerReports, withIntermediateDirectories: true)
        let command = "export TSAN_OPTIONS='log_path=\(sanitizerReports.path)/report'; " + command
        // tmux exits with its last session; a session started in that moment (suites run
        // in parallel) is lost with the exiting server. Start it again then.
        for attempt in 0..<5 {
            Self.run(Self.path!, ["-L", Self.socket, "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command])
            if Self.run(Self.path!, ["-L", Self.socket, "has-session", "-t", name]).status == 0 { break }
            Thread.sleep(forTimeInterval: 0.1 * Double(attempt + 1))
        }
    }

    deinit { kill() }

    public func tmux(_ arguments: [String]) -> (status: Int32, out: String) { Self.run(Self.path!, ["-L", Self.socket] + arguments) }

    /// Key names (`Enter`, `Escape`, `C-r`) or literal text.
    public func keys(_ keys: String...) { _ = tmux(["send-keys", "-t", name] + keys) }
    /// `--`: text starting with `-` is typed, not taken for a flag.
    public func type(_ text: String) { _ = tmux(["send-keys", "-t", name, "-l", "--", text]) }

    public var screen: String { tmux(["capture-pane", "-p", "-t", name]).out }
    public var alive: Bool { tmux(["has-session", "-t", name]).status == 0 }
    public func display(_ format: String) -> String {
        tmux(["display", "-p", "-t", name, format]).out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen until `condition` holds (true) or the timeout passes (false).
    /// The default is generous: the full suite runs these beside multi-process
    /// tests that keep both cores busy (a browser was seen not to answer a mouse press
    /// within 20 s there), and a wait that succeeds returns at once.
    @discardableResult
    public func wait(_ timeout: TimeInterval = 60, until condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if condition(screen) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return condition(screen)
    }

    @discardableResult
    public func wait(for text: String, _ timeout: TimeInterval = 60) -> Bool { wait(timeout) { $0.contains(text) } }

    public func kill() {
        _ = tmux(["kill-session", "-t", name])
        guard !reportsChecked else { return }
        reportsChecked = true
        let files = (try? FileManager.default.contentsOfDirectory(atPath: sanitizerReports.path)) ?? []
        for file in files.sorted() {
            let report = (try? String(contentsOfFile: sanitizerReports.appendingPathComponent(file).path, encoding: .utf8)) ?? ""
            Issue.record("a program run in tmux reported (\(file)):\n\(report.prefix(12_000))")
        }
        try? FileManager.default.removeItem(at: sanitizerReports)
    }
}
