import Foundation
import VellumStore

/// A throwaway PostgreSQL cluster for tests: `initdb` into a directory under /tmp,
/// the server on a Unix socket in it and a free loopback port, owned by the
/// `postgres` user when the tests run as root (initdb refuses root). One per test
/// process, started on first use (`shared()`); tests make their own database or
/// schema in it. It is stopped (`pg_ctl stop -m immediate`) and removed when the
/// process exits, by a watchdog even if the process is killed, and clusters left
/// by a dead process are removed at the next start.
public final class PostgreSQLCluster: Sendable {
    public let directory: String
    public let port: Int
    /// The superuser (trust authentication, no password).
    public let user = "vellum"
    let bin: String

    /// Where clusters live: short, so the socket path stays under the 107-byte limit.
    static let parent = "/tmp"
    static let prefix = "vellum-pg-"

    /// The cluster of this test process. A missing server is an error, never a skip.
    public static func shared() throws -> PostgreSQLCluster { try sharedCluster.get() }
    private static let sharedCluster = Result { () throws -> PostgreSQLCluster in
        let cluster = try PostgreSQLCluster(owner: getpid())
        atexit { PostgreSQLCluster.stopSharedAtExit() }
        return cluster
    }

    /// Starts a cluster that lives while process `owner` does.
    public init(owner: pid_t) throws {
        bin = try Self.serverBinaries()
        Self.removeStaleClusters()
        directory = "\(Self.parent)/\(Self.prefix)\(owner)-\(UUID().uuidString.prefix(8).lowercased())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        if getuid() == 0 { try Self.run(["/bin/chown", "postgres:", directory], log: nil) }
        port = try Self.freeLoopbackPort()
        do {
            try Self.run(Self.asServerUser(["\(bin)/initdb", "-D", "\(directory)/data", "-U", user, "-A", "trust",
                                            "-E", "UTF8", "--locale=C", "--no-sync"]), log: "\(directory)/initdb.log")
            try startServer()
            try startWatchdog(owner: owner)
        } catch {
            stop()
            throw error
        }
    }

    /// Starts the server (again, after `stopServer`), waiting until it accepts connections.
    public func startServer() throws {
        // The whole suite's PostgreSQL tests run in parallel against this one server, each
        // container holding a writer, readers and a listening connection: the default 100
        // connections ran out ("too many clients already").
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=400"
        try Self.run(Self.asServerUser(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log",
                                        "-w", "-t", "180", "-o", options, "start"]), log: "\(directory)/pg_ctl.log")
    }

    /// Stops the server (`pg_ctl stop -m fast`), keeping the data: `startServer` brings it back.
    public func stopServer() throws {
        try Self.run(Self.asServerUser(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "fast", "-w", "-t", "180", "stop"]),
                     log: "\(directory)/pg_ctl.log")
    }

    /// Restarts the server (`pg_ctl restart -m fast`): every connection is dropped, the data stays.
    public func restart() throws {
        try Self.run(Self.asServerUser(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-l", "\(directory)/server.log",
                                        "-w", "-t", "180", "-m", "fast", "restart"]), log: "\(directory)/pg_ctl.log")
    }

    /// A TCP URL of `database` (and `schema`) on this cluster.
    public func url(database: String = "postgres", schema: String? = nil) -> String {
        "postgresql://\(user)@127.0.0.1:\(port)/\(database)" + (schema.map { "?schema=\($0)" } ?? "")
    }

    /// The same database through the Unix socket (`host` is the socket's directory).
    public func socketURL(database: String = "postgres", schema: String? = nil) -> String {
        "postgresql://\(user)@/\(database)?host=\(directory)&port=\(port)" + (schema.map { "&schema=\($0)" } ?? "")
    }

    /// A new, empty database; returns its name.
    public func makeDatabase() throws -> String {
        let name = "t_" + UUID().uuidString.prefix(12).lowercased().replacingOccurrences(of: "-", with: "")
        try PGConnection(url: url()).execute("CREATE DATABASE \(name)")
        return name
    }

    /// A new, empty schema in a new database; returns the URL that selects it.
    public func makeSchema(_ name: String = "vellum") throws -> String {
        let database = try makeDatabase()
        try PGConnection(url: url(database: database)).execute("CREATE SCHEMA \"\(name)\"")
        return url(database: database, schema: name)
    }

    /// Stops the server at once and removes the directory.
    public func stop() {
        Self.stop(directory: directory, bin: bin)
    }

    private static func stopSharedAtExit() {
        guard case .success(let cluster) = sharedCluster else { return }
        cluster.stop()
    }

    static func stop(directory: String, bin: String) {
        if FileManager.default.fileExists(atPath: "\(directory)/data/postmaster.pid") {
            try? run(asServerUser(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"]), log: nil)
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A detached shell that stops and removes the cluster once `owner` is gone (even after `kill -9`).
    private func startWatchdog(owner: pid_t) throws {
        let stopCommand = Self.asServerUser(["\(bin)/pg_ctl", "-D", "\(directory)/data", "-m", "immediate", "-w", "stop"])
            .map { "'\($0)'" }.joined(separator: " ")
        let script = "while kill -0 \(owner) 2>/dev/null; do sleep 1; done; \(stopCommand) >/dev/null 2>&1; rm -rf '\(directory)'"
        _ = try Self.spawn(["/usr/bin/setsid", "/bin/sh", "-c", script], log: nil)
    }

    /// Clusters whose owning process is gone (killed before its watchdog ran, or the watchdog was killed too).
    static func removeStaleClusters() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: parent), let bin = try? serverBinaries() else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap({ pid_t($0) }) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH { stop(directory: "\(parent)/\(name)", bin: bin) }
        }
    }

    /// `initdb` and `pg_ctl`: `VELLUM_PG_BIN`, else the newest `/usr/lib/postgresql/*/bin`.
    public static func serverBinaries(override: String? = ProcessInfo.processInfo.environment["VELLUM_PG_BIN"],
                                      root: String = "/usr/lib/postgresql") throws -> String {
        var candidates: [String] = []
        if let override { candidates.append(override) }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        candidates += versions.compactMap(Int.init).sorted(by: >).map { "\(root)/\($0)/bin" }
        guard let bin = candidates.first(where: { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }) else {
            throw PostgreSQLClusterError("the PostgreSQL server binaries (initdb, pg_ctl) are missing: looked in VELLUM_PG_BIN and \(root)/*/bin; install them with `apt-get install postgresql` (.ci/run does)")
        }
        return bin
    }

    /// `command` run as the `postgres` user when we are root (the server refuses root).
    static func asServerUser(_ command: [String]) -> [String] {
        getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + command : command
    }

    static func run(_ command: [String], log: String?) throws {
        let status = CleanSpawn.wait(try spawn(command, log: log))
        guard status == 0 else {
            let output = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
            throw PostgreSQLClusterError("\(command.joined(separator: " ")) failed (exit status \(status)):\n\(output)")
        }
    }

    /// Not Foundation's `Process`: it learns of an exit through a descriptor the child
    /// inherits, and the server that `pg_ctl start` leaves running would keep it open.
    /// No descriptor of this process is passed on either (`CleanSpawn`).
    static func spawn(_ command: [String], log: String?) throws -> pid_t {
        do { return try CleanSpawn.spawn(command, output: log) } catch { throw PostgreSQLClusterError("\(error)") }
    }

    /// A port nothing listens on now: bound to 127.0.0.1:0 and released.
    public static func freeLoopbackPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw PostgreSQLClusterError("socket() failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                bind(fd, p, length) == 0 && getsockname(fd, p, &length) == 0
            }
        }
        guard bound else { throw PostgreSQLClusterError("cannot find a free loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

public struct PostgreSQLClusterError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
