import Foundation
import Testing
import VellumStore

/// A long-running child process whose stdout is collected line by line (and
/// stderr as text) by reader threads, so tests can wait for output with a timeout.
final class ChildProcess: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var collected: [String] = []
    private var partial = Data()
    private var errText = Data()
    private var outClosed = false

    init(_ arguments: [String], executable: URL = VellumBinary.url, stdin: Pipe? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let stdin { process.standardInput = stdin }
        try process.run()
        let outHandle = out.fileHandleForReading, errHandle = err.fileHandleForReading
        Thread { [self] in
            while true {
                let d = outHandle.availableData
                if d.isEmpty { break }
                appendOut(d)
            }
            lock.withLock { outClosed = true }
        }.start()
        Thread { [self] in
            while true {
                let d = errHandle.availableData
                if d.isEmpty { break }
                lock.withLock { errText.append(d) }
            }
        }.start()
    }

    private func appendOut(_ d: Data) {
        lock.withLock {
            partial.append(d)
            // One pass over the chunk, then one copy of the unfinished tail (a large chunk
            // holds thousands of lines; copying the rest after each one was quadratic).
            var start = partial.startIndex
            while let nl = partial[start...].firstIndex(of: UInt8(ascii: "\n")) {
                collected.append(String(decoding: partial[start..<nl], as: UTF8.self))
                start = partial.index(after: nl)
            }
            if start != partial.startIndex { partial = Data(partial[start...]) }
        }
    }

    var lines: [String] { lock.withLock { collected } }
    var lineCount: Int { lock.withLock { collected.count } }
    var stderr: String { lock.withLock { String(decoding: errText, as: UTF8.self) } }
    var stdoutClosed: Bool { lock.withLock { outClosed } }

    /// Polls until `condition(lines)` holds or `timeout` passes; returns whether it held.
    func waitForLines(timeout: Double, _ condition: @Sendable ([String]) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(lines) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return condition(lines)
    }

    /// Polls until stderr contains `text`.
    func waitForStderr(_ text: String, timeout: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if stderr.contains(text) { return true }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return stderr.contains(text)
    }

    /// Waits for the process to exit, then for its stdout to be read to the end.
    ///
    /// Whether the process exited is what counts: a child that another test spawned at
    /// the same moment can inherit the pipe's write end and keep it open for a while, so
    /// the end of stdout is waited for only briefly once the process is gone.
    @discardableResult
    func waitForExit(timeout: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { try? await Task.sleep(nanoseconds: 10_000_000) }
        if process.isRunning { return false }
        let drained = Date().addingTimeInterval(2)
        while !stdoutClosed && Date() < drained { try? await Task.sleep(nanoseconds: 10_000_000) }
        return true
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}

/// The exact double a date attribute holds in the file (the sqlite3 shell prints
/// at most 17 digits, not always exactly), read through the store.
func storedSeconds(_ path: String, _ entity: String, _ key: String, where predicate: String) throws -> Double? {
    let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
    let context = try ManagedObjectContext(store: store)
    let object = try context.fetch(entity, where: try VellumStore.QueryPredicate(format: predicate)).first
    return try object?.value(forKey: key).dateValue?.timeIntervalSince1970
}
