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

/// Runs `/usr/bin/sqlite3 path` with `script` on stdin; returns (status, stdout, stderr).
func runSQLite(_ path: String, _ script: String) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [path]
    let input = Pipe(), out = Pipe(), err = Pipe()
    process.standardInput = input
    process.standardOutput = out
    process.standardError = err
    try process.run()
    nonisolated(unsafe) var errData = Data()
    nonisolated(unsafe) var outData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async { errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    group.enter()
    DispatchQueue.global().async { outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave() }
    input.fileHandleForWriting.write(Data(script.utf8))
    try input.fileHandleForWriting.close()
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// One-value query through the sqlite3 shell.
func sqliteScalar(_ path: String, _ sql: String) throws -> String {
    try runSQLite(path, sql + ";\n").out.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The exact double a date attribute holds in the file (the sqlite3 shell prints
/// at most 17 digits, not always exactly), read through the store.
func storedSeconds(_ path: String, _ entity: String, _ key: String, where predicate: String) throws -> Double? {
    let store = try PersistentStore(url: URL(fileURLWithPath: path), model: nil, options: StoreOptions(createIfMissing: false))
    let context = try ManagedObjectContext(store: store)
    let object = try context.fetch(entity, where: try VellumStore.Predicate(format: predicate)).first
    return try object?.value(forKey: key).dateValue?.timeIntervalSince1970
}

/// The models the CLI tests create stores from.
enum CLIFixtures {
    /// Providers and products: required name, bounds, a regex, a uniqueness
    /// constraint, a deny rule, and every value type the formats print.
    static func shopModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Provider") {
                $0.attribute("name", .string, optional: false, min: 1, max: 40)
                $0.toMany("products", "Product", inverse: "provider", deleteRule: .deny)
                $0.unique("name")
            }
            .entity("Product") {
                $0.attribute("name", .string, optional: false)
                $0.attribute("price", .double, default: .double(0), min: 0)
                $0.attribute("stock", .integer16, default: .integer(0))
                $0.attribute("sku", .string, regex: "[A-Z]{3}-[0-9]+")
                $0.attribute("added", .date)
                $0.attribute("active", .boolean, default: .bool(true))
                $0.attribute("photo", .binary)
                $0.toOne("provider", "Provider", inverse: "products")
                $0.unique("sku")
            }
            .build()
    }

    /// Everything a failed write to a shop store must leave alone: rows of both tables and the history count.
    static func shopSnapshot(_ path: String) throws -> String {
        try runSQLite(path, """
            SELECT * FROM "Product" ORDER BY "_pk";
            SELECT * FROM "Provider" ORDER BY "_pk";
            SELECT count(*) FROM _vellum_changes;
            """).out
    }

    /// A shop store with 2 providers and 4 products; returns the store.
    @discardableResult
    static func makeShop(at path: String) throws -> PersistentStore {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: shopModel())
        let c = try ManagedObjectContext(store: store)
        let acme = try c.insert("Provider", values: ["name": .string("Acme")])
        _ = try c.insert("Provider", values: ["name": .string("Globex")])
        let rows: [(String, Double, Int64, String?, String?)] = [
            ("apple", 1.5, 10, "APL-1", "2024-05-01T10:00:00Z"),
            ("banana", 0.25, 0, "BAN-2", nil),
            ("cherry, \"red\"", 12, 3, nil, "2024-01-02T00:00:00Z"),
            ("date", 7, 5, "DAT-4", nil),
        ]
        for (i, r) in rows.enumerated() {
            var values: [String: Value] = ["name": .string(r.0), "price": .double(r.1), "stock": .integer(r.2)]
            if let sku = r.3 { values["sku"] = .string(sku) }
            if let d = r.4 { values["added"] = .date(Value.parseISO8601(d)!) }
            if i == 0 { values["photo"] = .data(Data([0, 1, 2, 255])) }
            let p = try c.insert("Product", values: values)
            if i < 2 { try p.setToOne("provider", acme) }
        }
        _ = try c.save()
        return store
    }

    /// `Row(owner, key, value)`, unique (owner, key): the multi-process tests' model.
    static func rowModel() throws -> ManagedObjectModel {
        try ModelBuilder()
            .entity("Row") {
                $0.attribute("owner", .string, optional: false)
                $0.attribute("key", .integer64, optional: false)
                $0.attribute("value", .integer64, optional: false, default: .integer(0))
                $0.unique("owner", "key")
                $0.index("Row_owner_key", "owner", "key")
            }
            .build()
    }

    /// A Row store with the shared counters (owner "shared", keys 0...3, value 0).
    static func makeRowStore(at path: String) throws {
        let store = try PersistentStore(url: URL(fileURLWithPath: path), model: rowModel())
        let c = try ManagedObjectContext(store: store)
        for k in 0..<4 {
            try c.insert("Row", values: ["owner": .string("shared"), "key": .integer(Int64(k)), "value": .integer(0)])
        }
        _ = try c.save()
    }
}

/// The team's Core Data fixtures (`shared/fixtures/coredata`): from
/// `VELLUM_FIXTURES_DIR`, else the first `shared/fixtures/coredata` beside the
/// package or one of its parent folders, else `/work/shared/fixtures/coredata`.
enum SharedFixtures {
    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["VELLUM_FIXTURES_DIR"] { return URL(fileURLWithPath: dir) }
        var folder = VellumBinary.packageRoot
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("shared/fixtures/coredata")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "/work/shared/fixtures/coredata")
    }()
}
