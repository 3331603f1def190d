import Foundation

/// Starting helper programs that may outlive the call (a tmux server, a PostgreSQL
/// server, a watchdog) without handing them the test process's descriptors.
///
/// Why: `posix_spawn` passes every descriptor not marked close-on-exec to the child.
/// A long-lived child (the tmux server that `new-session` forks, the postmaster that
/// `pg_ctl start` leaves running) then holds, for its whole life, the write end of
/// whatever pipe another test had open at that moment — and that test, reading its
/// child's output to end-of-file (the `sqlite3` shell), waits until the server exits.
/// The PostgreSQL server lives as long as the test process: a deadlock, seen as a CI
/// run that never finished. Foundation's `Process` closes the others itself.
public enum CleanSpawn {
    /// Starts `command` (an absolute path and its arguments) with stdin from /dev/null,
    /// stdout and stderr appended to `output` (default /dev/null), and no other descriptor.
    public static func spawn(_ command: [String], output: String? = nil, truncate: Bool = false) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null",
                                         O_WRONLY | O_CREAT | (truncate ? O_TRUNC : O_APPEND), 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        closeInheritedDescriptors(&actions)
        let argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, command[0], &actions, nil, argv, environ)
        guard rc == 0 else { throw CleanSpawnError("cannot start \(command[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    /// Waits for `pid` and returns its exit status (128 + signal when killed).
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// The descriptors (numbers) a running process holds, and what each points to.
    public static func descriptors(of pid: pid_t) -> [Int32: String] {
        let dir = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        var result: [Int32: String] = [:]
        for name in names {
            guard let fd = Int32(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/\(name)") else { continue }
            result[fd] = target
        }
        return result
    }

    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc ≥ 2.34 has `posix_spawn_file_actions_addclosefrom_np`; Swift's Glibc module does not import it.
    private static let closeFrom: CloseFrom? =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: CloseFrom.self) }

    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        if let closeFrom, closeFrom(&actions, 3) == 0 { return }
        // Older C libraries: close what is open now (racy, but only where closefrom is missing).
        for fd in descriptors(of: getpid()).keys where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
    }
}

public struct CleanSpawnError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
