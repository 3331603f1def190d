import Foundation
import VellumStore

/// A private tmux server (its own `-L` socket, so other tmux users and tests are
/// untouched) with one detached session, driven by running `tmux` once per command
/// (`send-keys`, `capture-pane`), as the end-to-end tests do.
final class BenchTmux {
    static let path: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let tmuxPath: String
    let socket: String
    let session = "bench"

    /// Starts `command` (exec'd, so the pane's process is the command itself) in a
    /// detached `width`x`height` session on a fresh server.
    init(_ command: String, width: Int = 120, height: Int = 40) throws {
        guard let path = Self.path else { throw BenchError("tmux not found (needed by the tui-* benchmarks)") }
        tmuxPath = path
        socket = "vellum-bench-\(UUID().uuidString.prefix(8))"
        let status = run(["new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", "exec " + command], quiet: true).status
        guard status == 0 else { throw BenchError("tmux new-session failed (status \(status))") }
    }

    deinit { _ = run(["kill-server"], quiet: true) }

    /// Runs `tmux -L socket ARGUMENTS` with posix_spawn and waitpid (Foundation's
    /// `Process` once never noticed the exit of the client that starts the server,
    /// and spawning directly is cheaper, which matters for the timing resolution).
    /// stdout is returned unless `quiet` (then it goes to /dev/null, as the server
    /// started by new-session would keep a pipe open forever).
    @discardableResult
    func run(_ arguments: [String], quiet: Bool = false) -> (status: Int32, out: String) {
        let argv = [tmuxPath, "-L", socket] + arguments
        var fds: [Int32] = [-1, -1]
        if !quiet, pipe(&fds) != 0 { return (-1, "") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if quiet {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        } else {
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_addclose(&actions, fds[0])
            posix_spawn_file_actions_addclose(&actions, fds[1])
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var cargs = argv.map { strdup($0) }
        cargs.append(nil)
        defer { for a in cargs { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, tmuxPath, &actions, nil, cargs, environ)
        var data = [UInt8]()
        if !quiet {
            Glibc.close(fds[1])
            if rc == 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let n = read(fds[0], &buffer, buffer.count)
                    if n > 0 { data.append(contentsOf: buffer[0..<n]) } else if n == 0 || errno != EINTR { break }
                }
            }
            Glibc.close(fds[0])
        }
        guard rc == 0 else { return (-1, "") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitCode = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return (exitCode, String(decoding: data, as: UTF8.self))
    }

    var screen: String { run(["capture-pane", "-p", "-t", session]).out }
    func keys(_ keys: String...) { run(["send-keys", "-t", session] + keys) }
    func literal(_ text: String) { run(["send-keys", "-t", session, "-l", text]) }

    /// The pid of the pane's process (the exec'd command).
    var panePID: Int32? { Int32(run(["display", "-p", "-t", session, "#{pane_pid}"]).out.trimmingCharacters(in: .whitespacesAndNewlines)) }

    /// Polls `capture-pane` back to back (1 ms apart) until `condition` holds; returns
    /// the ms from `start` to the end of the capture that first satisfied it, or throws
    /// after `timeout` seconds.
    func waitMillis(since start: UInt64, timeout: Double, _ what: String, until condition: (String) -> Bool) throws -> Double {
        let deadline = start + UInt64(timeout * 1e9)
        while true {
            let text = screen
            let now = Clocks.monotonicNanos()
            if condition(text) { return Clocks.ms(from: start, to: now) }
            if now > deadline {
                throw BenchError("tui: timed out after \(timeout) s waiting for \(what); screen:\n\(text)")
            }
            usleep(1000)
        }
    }

    /// Ends the session and waits (up to 5 s) until `pid` has exited.
    func close(waitingFor pid: Int32?) {
        run(["kill-server"], quiet: true)
        guard let pid else { return }
        for _ in 0..<500 where kill(pid, 0) == 0 { usleep(10_000) }
    }
}

/// The `tui-*` figures: the real `vellum` binary (release build, next to this
/// executable) in tmux on a 1,000,000-row store. See docs/benchmarks.md.
enum TUIWorkload {
    static let rowCount = 1_000_000

    struct Figures {
        var firstScreen: [Double] = []
        /// Launch → the same marker on screen for `printf` in the same kind of tmux session:
        /// what the harness itself costs (server start, pane, capture-pane polling).
        var firstScreenTmuxBaseline: [Double] = []
        var rssMB = 0.0
        var hwmMB = 0.0
        var sort: [Double] = []
        var keyRedraw: [Double] = []
        /// The same `j` loop while the browser's own save waits on the write queue.
        var keyRedrawSaving: [Double] = []
        var keyEchoBaseline: [Double] = []
        var captureOnly: [Double] = []
        var remote: [Double] = []
        /// Issue #17 (TUIOperations.swift).
        var find: [Double] = []
        var filter: [Double] = []
        var group: [Double] = []
        var summary: [Double] = []
        var rssAfterOpsMB = 0.0
    }

    /// `vellum` next to this executable (`.build/release/vellum` for a release build).
    static func vellumBinary() throws -> String {
        let dir = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let path = dir.appendingPathComponent("vellum").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw BenchError("tui benchmarks need the vellum binary at \(path); build it with `swift build -c release --product vellum` (or `swift build -c release`)")
        }
        return path
    }

    /// Scalar by scalar: Foundation's `replacingOccurrences` skips a quote a combining mark follows.
    static func shellQuote(_ s: String) -> String {
        var out = String.UnicodeScalarView(["'"])
        for c in s.unicodeScalars {
            if c == "'" { out.append(contentsOf: "'\\''".unicodeScalars) } else { out.append(c) }
        }
        out.append("'")
        return String(out)
    }

    static func log(_ s: String) { FileHandle.standardError.write(Data("  tui: \(s)\n".utf8)) }

    static func vmKB(_ field: String, pid: Int32) -> Int? {
        guard let handle = FileHandle(forReadingAtPath: "/proc/\(pid)/status") else { return nil }
        defer { try? handle.close() }
        let status = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }

    /// Runs every tui measurement on `store` (a bulk store of `rowCount` Records, history on).
    static func measure(store: URL) throws -> Figures {
        let vellum = try vellumBinary()
        var f = Figures()
        let command = "\(shellQuote(vellum)) \(shellQuote(store.path))"
        let firstMarker = "row 1/\(rowCount)"

        // Its baseline: tmux showing the marker printed by `cat` (3 launches; one exec'd
        // process, as vellum is, that then waits on the terminal), so the figure can be
        // read without the harness's own start.
        let markerFile = FileManager.default.temporaryDirectory.appendingPathComponent("vellum-bench-marker-\(getpid()).txt")
        try Data(firstMarker.utf8).write(to: markerFile)
        defer { try? FileManager.default.removeItem(at: markerFile) }
        for _ in 0..<3 {
            let start = Clocks.monotonicNanos()
            let t = try BenchTmux("cat \(shellQuote(markerFile.path)) -")
            f.firstScreenTmuxBaseline.append(try t.waitMillis(since: start, timeout: 30, "printf's marker") { $0.contains(firstMarker) })
            t.close(waitingFor: t.panePID)
        }
        log("first screen baseline (tmux + cat of the marker) ms: " + f.firstScreenTmuxBaseline.map { String(format: "%.1f", $0) }.joined(separator: " "))

        // tui-first-screen-1m: launch → first screen with the 1M entity's rows (3 launches).
        var tmux: BenchTmux?
        var pid: Int32?
        for run in 0..<3 {
            let start = Clocks.monotonicNanos()
            let t = try BenchTmux(command)
            let ms = try t.waitMillis(since: start, timeout: 120, "the first screen (\(firstMarker))") {
                $0.contains(firstMarker)
            }
            f.firstScreen.append(ms)
            log(String(format: "first screen run %d: %.1f ms", run + 1, ms))
            if run < 2 {
                t.close(waitingFor: t.panePID)
            } else {
                tmux = t
                pid = t.panePID
            }
        }
        guard let t = tmux, let pid else { throw BenchError("tui: no pane pid") }
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
        guard comm.hasPrefix("vellum") else { throw BenchError("tui: the pane's process is '\(comm)', not vellum") }

        // tui-rss-1m: VmRSS after the first screen and ~1 s of settling.
        Thread.sleep(forTimeInterval: 1.0)
        guard let rss = vmKB("VmRSS", pid: pid) else { throw BenchError("tui: cannot read /proc/\(pid)/status") }
        f.rssMB = Double(rss) / 1024
        f.hwmMB = Double(vmKB("VmHWM", pid: pid) ?? 0) / 1024
        log(String(format: "VmRSS %.1f MB, VmHWM %.1f MB", f.rssMB, f.hwmMB))

        // Resolution: capture-pane alone.
        for _ in 0..<30 {
            let s = Clocks.monotonicNanos()
            _ = t.screen
            f.captureOnly.append(Clocks.ms(from: s, to: Clocks.monotonicNanos()))
        }

        // tui-remote-to-screen: this process commits a new name for the first row
        // (it stays first in the default name order); wait for it on screen.
        do {
            let writerStore = try PersistentStore(url: store, model: nil, options: StoreOptions(createIfMissing: false))
            let ctx = try ManagedObjectContext(store: writerStore)
            let id = writerStore.objectID(entity: "Record", primaryKey: 1)
            for k in 0..<12 {
                let marker = "record number 0 m\(k)x"
                let o = try ctx.object(with: id)
                try o.setValue(.string(marker), forKey: "name")
                _ = try ctx.save()
                let start = Clocks.monotonicNanos()
                let ms = try t.waitMillis(since: start, timeout: 10, "remote value \(marker)") { $0.contains(marker) }
                if k >= 2 { f.remote.append(ms) }  // two warm-up commits
                usleep(100_000)
            }
        }
        log("remote → screen ms: " + f.remote.map { String(format: "%.1f", $0) }.joined(separator: " "))

        // tui-key-redraw-p50: `j` → `row i+1/N` on screen, 100 times (+5 warm-up).
        for i in 1...105 {
            let want = "row \(i + 1)/\(rowCount) "
            let start = Clocks.monotonicNanos()
            t.keys("j")
            let ms = try t.waitMillis(since: start, timeout: 10, want) { $0.contains(want) }
            if i > 5 { f.keyRedraw.append(ms) }
        }
        f.keyRedrawSaving = try keyRedrawWhileSaving(t, store: store, fromRow: 106)
        try measureFind(t, into: &f)

        // tui-sort-1m: `s`/`S` on column 0 (`key`, unindexed) → sort marker and first row.
        t.keys("g")
        _ = try t.waitMillis(since: Clocks.monotonicNanos(), timeout: 10, "row 1") { $0.contains(firstMarker) }
        for (key, marker) in [("s", "sort: key ▲"), ("S", "sort: key ▼"), ("s", "sort: key ▲")] {
            let start = Clocks.monotonicNanos()
            t.keys(key)
            let ms = try t.waitMillis(since: start, timeout: 120, marker) { $0.contains(marker) }
            f.sort.append(ms)
            log(String(format: "sort %@: %.1f ms", key, ms))
        }
        let exportPath = store.deletingLastPathComponent().appendingPathComponent("tui-export.csv").path
        try measureOperations(t, pid: pid, exportPath: exportPath, into: &f)
        t.close(waitingFor: pid)

        // Baseline for key → redraw: a key to `cat` echoed by the tty, same send/poll loop.
        let echo = try BenchTmux("cat")
        _ = try echo.waitMillis(since: Clocks.monotonicNanos(), timeout: 10, "cat") { _ in true }
        for i in 1...105 {
            let start = Clocks.monotonicNanos()
            echo.literal("x")
            let ms = try echo.waitMillis(since: start, timeout: 10, "echo \(i)") { $0.filter { $0 == "x" }.count >= i }
            if i > 5 { f.keyEchoBaseline.append(ms) }
        }
        echo.close(waitingFor: echo.panePID)
        log(String(format: "capture-pane alone p50 %.2f ms; key→echo (cat) p50 %.2f ms; j→redraw p50 %.2f p99 %.2f ms; while saving p50 %.2f p99 %.2f ms",
                   percentile(f.captureOnly, 50), percentile(f.keyEchoBaseline, 50),
                   percentile(f.keyRedraw, 50), percentile(f.keyRedraw, 99),
                   percentile(f.keyRedrawSaving, 50), percentile(f.keyRedrawSaving, 99)))
        return f
    }
}

extension TUIWorkload {
    /// `tui-key-redraw-saving-*`: the `j` → redraw loop (105 keys, 5 warm-up) while the
    /// browser's own save is in flight. This process holds the write lock (`BEGIN
    /// IMMEDIATE` on its own connection); the user edits the selected row's `key` and
    /// presses Enter, so the save waits on the write queue (`writes: 1` on screen) for
    /// the whole loop. Then the lock is released and the save lands.
    static func keyRedrawWhileSaving(_ t: BenchTmux, store: URL, fromRow first: Int) throws -> [Double] {
        let lock = try Connection(path: store.path)
        try lock.execute("BEGIN IMMEDIATE")
        var locked = true
        defer { if locked { try? lock.execute("ROLLBACK") } }
        t.keys("e"); t.keys("C-u"); t.literal("7777777"); t.keys("Enter")
        _ = try t.waitMillis(since: Clocks.monotonicNanos(), timeout: 10, "the save in flight (writes: 1)") { $0.contains("writes: 1") }
        var samples: [Double] = []
        for i in 1...105 {
            let want = "row \(first + i)/\(rowCount) "
            let start = Clocks.monotonicNanos()
            t.keys("j")
            let ms = try t.waitMillis(since: start, timeout: 10, want) { $0.contains(want) }
            if i > 5 { samples.append(ms) }
        }
        guard t.screen.contains("writes: 1") else {
            throw BenchError("tui: the save left the write queue before the key loop ended (lock wait ran out?)")
        }
        try lock.execute("COMMIT")
        locked = false
        _ = try t.waitMillis(since: Clocks.monotonicNanos(), timeout: 30, "the save landing") { $0.contains("saved key") }
        return samples
    }
}
