import Foundation
import Testing
@testable import VellumStore

/// High item 3: with other processes writing and checkpointing, 0.5–1.3% of opens
/// reported a healthy store as "database disk image is malformed" (the immutable
/// probe read the main file mid-checkpoint). Seeded `sqlite3` writer processes
/// insert and checkpoint (every mode, so the log is sometimes empty and the probe
/// runs) while this process opens the store over and over, for a bounded time.
@Suite(.serialized) struct OpeningUnderWritersTests {
    static let writers = 2
    static let transactionsPerWriter = 4_000
    /// Opens to attempt, with writers running through every one of them (a writer that
    /// finishes is replaced); the time limit only bounds a machine too loaded to get there.
    static let targetOpens = 300
    static let openingSecondsLimit = 90.0

    /// A `sqlite3` script of seeded inserts into Tag, each followed by a checkpoint.
    static func writerScript(seed: UInt64) -> String {
        var rng = SplitMix64(seed: seed)
        let modes = ["PASSIVE", "FULL", "RESTART", "TRUNCATE"]
        var script = "PRAGMA busy_timeout=10000;\n"
        for i in 0..<transactionsPerWriter {
            let length = 50 + Int(rng.next() % 2_000)
            script += "INSERT INTO \"Tag\" (\"_entity\", \"name\") VALUES ('Tag', 'w\(seed)-\(i)-' || hex(randomblob(\(length / 2))));\n"
            script += "PRAGMA wal_checkpoint(\(modes[Int(rng.next() % 4)]));\n"
        }
        return script
    }

    static func startWriter(_ path: String, script: URL) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        p.arguments = [path, ".read \(script.path)"]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        return p
    }

    @Test func opensNeverFailWhileOtherProcessesWriteAndCheckpoint() throws {
        let dir = TempDir()
        let url = dir.file("shop.sqlite")
        do { _ = try Fixtures.openShop(dir) }
        var processes: [Process] = []
        defer { for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) } }
        for w in 0..<Self.writers {
            let script = dir.file("writer\(w).sql")
            try Self.writerScript(seed: 0x5EED + UInt64(w)).write(to: script, atomically: true, encoding: .utf8)
            processes.append(try Self.startWriter(url.path, script: script))
        }
        var opens = 0
        var failures: [String] = []
        var lastCount = 0
        let deadline = Date().addingTimeInterval(Self.openingSecondsLimit)
        var nextSeed = UInt64(Self.writers)
        while opens < Self.targetOpens && Date() < deadline {
            // A writer that finished is replaced: on a loaded machine (or under TSan, where only this
            // process is slowed) the writers finish first, and opens without writers would prove nothing.
            for (i, p) in processes.enumerated() where !p.isRunning {
                let script = dir.file("writer\(nextSeed).sql")
                try Self.writerScript(seed: 0x5EED + nextSeed).write(to: script, atomically: true, encoding: .utf8)
                processes[i] = try Self.startWriter(url.path, script: script)
                nextSeed += 1
            }
            let readOnly = opens % 2 == 1
            do {
                let store = try PersistentStore(url: url, model: nil, options: .init(createIfMissing: false, readOnly: readOnly))
                let count = try ManagedObjectContext(store: store).count(FetchRequest(entityName: "Tag"))
                if count < lastCount { failures.append("count went back from \(lastCount) to \(count)") }
                lastCount = count
            } catch {
                failures.append("\(readOnly ? "read-only " : "")open \(opens): \(error)")
            }
            opens += 1
        }
        for p in processes where p.isRunning { kill(p.processIdentifier, SIGKILL) }
        for p in processes { p.waitUntilExit() }
        print("opens under \(Self.writers) writers: \(opens), failures: \(failures.count)")
        #expect(opens >= 100, "too few opens to mean anything: \(opens)")
        #expect(lastCount > 0, "the writers wrote nothing")
        #expect(failures.isEmpty, "\(failures.count) of \(opens) opens failed: \(failures.prefix(5))")
        #expect(try Connection(path: url.path).scalarText("PRAGMA integrity_check") == "ok")
    }
}
