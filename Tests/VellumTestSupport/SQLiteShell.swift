import Foundation

/// Runs `/usr/bin/sqlite3` with `arguments`, `input` on stdin; returns (status, stdout, stderr).
/// Tests use it to check what another program sees in a store file.
public func runSQLiteShell(_ arguments: [String], input: String = "") throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = arguments
    let stdin = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = stdin
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes concurrently so a full pipe cannot block the shell.
    nonisolated(unsafe) var errData = Data()
    nonisolated(unsafe) var outData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try stdin.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// Runs the sqlite3 shell on `path` with `script` on stdin, waiting up to 5 s for a lock.
/// The wait matters: a container that just closed checkpoints its WAL and holds the file
/// exclusively for a moment, and a shell without a busy timeout then prints "database is locked".
public func runSQLite(_ path: String, _ script: String) throws -> (status: Int32, out: String, err: String) {
    try runSQLiteShell(["-cmd", ".timeout 5000", path], input: script)
}

/// One-value query through the sqlite3 shell.
public func sqliteScalar(_ path: String, _ sql: String) throws -> String {
    try runSQLite(path, sql + ";\n").out.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The sqlite3 shell's output for `sql` on the file at `path` (trimmed), waiting up to 5 s for a lock.
public func sqliteOutput(_ path: String, _ sql: String) throws -> String {
    try runSQLiteShell(["-cmd", ".timeout 5000", path, sql]).out.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// Runs `sql` through the sqlite3 shell (waiting up to 5 s for a lock); returns its exit status.
@discardableResult
public func sqliteShell(_ path: String, _ sql: String) throws -> Int32 {
    try runSQLiteShell(["-cmd", ".timeout 5000", path, sql]).status
}

/// The rows of a read-only query through the sqlite3 shell, one line each (waiting up to 5 s for a lock).
public func sqliteRows(_ path: String, _ sql: String) throws -> [String] {
    try runSQLiteShell(["-readonly", "-cmd", ".timeout 5000", path, sql]).out.split(separator: "\n").map(String.init)
}
