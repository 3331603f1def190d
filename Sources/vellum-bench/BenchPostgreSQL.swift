import Foundation

/// The pg-* benchmarks' own throwaway PostgreSQL server: `initdb` into a fresh
/// directory under /tmp (as the `postgres` user when run as root: initdb refuses
/// root), the server on a free loopback port, `fsync` and `synchronous_commit` off
/// (as the tests' cluster: both sides of every figure run on it). Stopped and
/// removed at exit (`atexit`, so also when a benchmark fails), and by a detached
/// watchdog if this process is killed.
final class BenchPostgreSQL {
    static let skipReason = "no PostgreSQL server binaries (set VELLUM_PG_BIN)"

    let directory: String
    let port: Int
    private let bin: String
    private var schemas = 0

    /// `VELLUM_PG_BIN`, else /usr/lib/postgresql/15/bin; nil when neither holds initdb and pg_ctl.
    static func serverBinaries() -> String? {
        let candidates = [ProcessInfo.processInfo.environment["VELLUM_PG_BIN"], "/usr/lib/postgresql/15/bin"].compactMap { $0 }
        return candidates.first { dir in ["initdb", "pg_ctl"].allSatisfy { FileManager.default.isExecutableFile(atPath: "\(dir)/\($0)") } }
    }

    /// Starts the server; throws `Skipped` when there are no server binaries.
    init() throws {
        guard let bin = Self.serverBinaries() else { throw Skipped(reason: Self.skipReason) }
        self.bin = bin
        directory = "/tmp/vellum-bench-pg-\(getpid())-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        port = try Self.freePort()
        Self.registerCleanup(stopCommand: Self.asServer(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"]),
                             directory: directory)
        if getuid() == 0 { try Self.run(["/bin/chown", "postgres:", directory]) }
        try Self.run(Self.asServer(["\(bin)/initdb", "-D", "\(directory)/data", "-U", "vellum", "-A", "trust", "-E", "UTF8",
                                    "--locale=C", "--no-sync"]), log: "\(directory)/initdb.log")
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        try Self.run(Self.asServer(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log", "-w", "-t", "120",
                                    "-o", options, "start"]), log: "\(directory)/pg_ctl.log")
    }

    /// The database, as libpq takes it (the raw side's connections).
    var databaseURL: String { "postgresql://vellum@127.0.0.1:\(port)/postgres" }

    /// A new schema name; `storeURL` of it is where a store is created on first open.
    func freshSchema(_ stem: String) -> String {
        schemas += 1
        return "\(stem.replacingOccurrences(of: "-", with: "_"))_\(schemas)"
    }

    func storeURL(schema: String) -> URL { URL(string: "\(databaseURL)?schema=\(schema)")! }

    // MARK: - Cleanup

    /// What to run at exit: (pg_ctl stop command, directory) of each started server.
    private static let started = LockedBox<[([String], String)]>([])

    private static func registerCleanup(stopCommand: [String], directory: String) {
        let first = started.withLock { list -> Bool in
            list.append((stopCommand, directory))
            return list.count == 1
        }
        if first { atexit { BenchPostgreSQL.stopAll() } }
        // Should this process be killed: stop and remove the server once it is gone.
        let quoted = stopCommand.map { "'\($0)'" }.joined(separator: " ")
        let script = "while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done; \(quoted) >/dev/null 2>&1; rm -rf '\(directory)'"
        _ = try? spawn(["/usr/bin/setsid", "/bin/sh", "-c", script], log: nil)
    }

    private static func stopAll() {
        for (stop, directory) in started.withLock({ list in defer { list.removeAll() }; return list }) {
            if FileManager.default.fileExists(atPath: "\(directory)/data/postmaster.pid") { try? run(stop) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    // MARK: - Processes

    private static func asServer(_ command: [String]) -> [String] {
        getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
    }

    private static func run(_ command: [String], log: String? = nil) throws {
        let pid = try spawn(command, log: log)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        guard status == 0 else {
            let output = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
            let how = status & 0x7f == 0 ? "exit status \((status >> 8) & 0xff)" : "signal \(status & 0x7f)"
            throw BenchError("\(command.joined(separator: " ")) failed (\(how))\n\(output)")
        }
    }

    /// posix_spawn with stdin /dev/null, stdout+stderr to `log`, and no other descriptor of
    /// ours: the postmaster `pg_ctl start` leaves running must not hold a pipe of this
    /// process open (a `--child` reader would wait for it), nor would `Process` see pg_ctl exit.
    private static func spawn(_ command: [String], log: String?) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log ?? "/dev/null", O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.compactMap { Int32($0) } ?? []
        for fd in open where fd > 2 && fcntl(fd, F_GETFD) != -1 { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard rc == 0 else { throw BenchError("cannot start \(command[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// A loopback port nothing listens on now (bound to port 0, then released).
    private static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { throw BenchError("no free loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A benchmark that cannot run here; its row says why instead of a figure.
struct Skipped: Error {
    let reason: String
}
