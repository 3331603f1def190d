import Foundation
import Testing
import VellumStore
@testable import vellum

/// One Row as the tests compare it.
struct RowState: Hashable, CustomStringConvertible {
    var owner: String
    var key: Int64
    var value: Int64
    var description: String { "\(owner)/\(key)=\(value)" }
}

/// What a writer's `ok` lines say the store must contain.
struct Replay {
    var rows: [String: [Int64: Int64]] = [:]   // owner -> key -> value
    var inserts: [String: Int64] = [:]          // owner -> inserts
    var increments: [Int64: Int64] = [:]        // counter -> increments
    var lines = 0

    mutating func apply(_ lines: [String], owner: String) throws {
        for line in lines {
            let parts = line.split(separator: " ").map(String.init)
            guard parts.count >= 3, parts[0] == "ok" else { throw ReplayError(line: line) }
            var fields: [String: Int64] = [:]
            for p in parts.dropFirst(3) {
                let kv = p.split(separator: "=", maxSplits: 1)
                if kv.count == 2, let v = Int64(kv[1]) { fields[String(kv[0])] = v }
            }
            switch parts[2] {
            case "insert":
                rows[owner, default: [:]][fields["key"]!] = fields["value"]!
                inserts[owner, default: 0] += 1
            case "update": rows[owner, default: [:]][fields["key"]!] = fields["value"]!
            case "delete": rows[owner, default: [:]][fields["key"]!] = nil
            case "increment": increments[fields["counter"]!, default: 0] += 1
            default: throw ReplayError(line: line)
            }
            self.lines += 1
        }
    }
}

struct ReplayError: Error { var line: String }

/// Reads every Row of the store through a fresh store object.
func storeRows(_ path: String) throws -> [ObjectID: RowState] {
    let store = try PersistentStore.open(location: path, model: nil, options: StoreOptions(createIfMissing: false))
    let c = try ManagedObjectContext(store: store)
    var result: [ObjectID: RowState] = [:]
    for o in try c.fetch("Row") { result[o.objectID] = try RowState(o) }
    return result
}

extension RowState {
    init(_ o: ManagedObject) throws {
        owner = try o.value(forKey: "owner").stringValue ?? "?"
        key = try o.value(forKey: "key").integerValue ?? -1
        value = try o.value(forKey: "value").integerValue ?? -1
    }
}

/// An observer in this process: a container's view context, whose
/// `objectsDidChange` events maintain the set of IDs it believes exist and their values.
/// A read that meets the server away (a PostgreSQL restart) is not a deletion: the row
/// is read again before comparing, as `StressObserver` and the results controllers do.
@MainActor
final class ViewObserver {
    let container: PersistentContainer
    private(set) var believed: [ObjectID: RowState] = [:]
    private(set) var events = 0
    private(set) var failures: [String] = []
    /// Rows an event named whose reading failed for now; read again before comparing.
    private var unread: Set<ObjectID> = []
    /// A refetch that met the server away, done again before comparing.
    private var refetchPending = false
    /// Reads (and refetches) that met the server away, for the report.
    private(set) var retriedReads = 0

    init(path: String) throws {
        container = try PersistentContainer(store: PersistentStore.open(location: path, model: nil, options: StoreOptions(createIfMissing: false)))
        let context = container.viewContext
        container.onMergeError { [weak self] error in self?.failures.append("\(error)") }
        context.observeChanges { [weak self] event in self?.handle(event) }
        refetch()
    }

    private func refetch() {
        do {
            var all: [ObjectID: RowState] = [:]
            for o in try container.viewContext.fetch("Row") { all[o.objectID] = try RowState(o) }
            believed = all
            unread = []
            refetchPending = false
        } catch let error as StoreError where error.isServerUnavailable || error.isBusy {
            retriedReads += 1
            refetchPending = true
        } catch { failures.append("refetch: \(error)") }
    }

    private func handle(_ event: ObjectsDidChange) {
        events += 1
        if event.invalidatedAll || event.storeChangedExternally { refetch(); return }
        let gone = event.deleted.union(event.invalidated)
        for id in gone {
            believed[id] = nil
            unread.remove(id)
        }
        for id in event.inserted.union(event.updated).union(event.refreshed).subtracting(gone) { read(id) }
    }

    private func read(_ id: ObjectID) {
        do {
            believed[id] = try RowState(container.viewContext.existingObject(with: id))
            unread.remove(id)
        } catch StoreError.objectNotFound {
            // Deleted again by a save not merged yet: its delete event follows.
            believed[id] = nil
            unread.remove(id)
        } catch let error as StoreError where error.isServerUnavailable || error.isBusy {
            // The server is away (a restart): no later event need name this row again.
            retriedReads += 1
            unread.insert(id)
        } catch {
            failures.append("reading \(id): \(error)")
            unread.insert(id)
        }
    }

    /// Reads again what could not be read while the server was away.
    private func catchUp() {
        if refetchPending { refetch() }
        for id in unread { read(id) }
    }

    /// Waits until the merged view equals the store; returns whether it did.
    func settle(path: String, timeout: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            catchUp()
            if try believed == storeRows(path) { return true }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        catchUp()
        return try believed == storeRows(path)
    }

    /// What the view believes that the store does not say, for a failure message.
    func difference(path: String) -> String {
        let stored: [ObjectID: RowState]
        do { stored = try storeRows(path) } catch { return "the store could not be read: \(error)" }
        let missing = stored.filter { believed[$0.key] == nil }.map(\.value)
        let extra = believed.filter { stored[$0.key] == nil }.map(\.value)
        let stale = stored.compactMap { id, row in believed[id].flatMap { $0 == row ? nil : "\($0) (store: \(row))" } }
        return "\(events) events; \(unread.count) unread\(refetchPending ? ", refetch pending" : ""); "
            + "missing \(missing.count) \(missing.prefix(5)); extra \(extra.count) \(extra.prefix(5)); stale \(stale.count) \(stale.prefix(5))"
    }
}

@MainActor
@Suite("MultiProcess: concurrent writer processes", .serialized)
struct MultiProcessTests {
    /// Starts writer `n` as a child process.
    func writer(_ path: String, _ n: Int, saves: Int, seed: UInt64) throws -> ChildProcess {
        try ChildProcess(["_stress-writer", path, "--writer", "\(n)", "--saves", "\(saves)", "--seed", "\(seed)"])
    }

    /// The rows a replay expects, keyed like the store (owner, key).
    func check(path: String, replay: Replay, extraOwners: [String: [Int64: Int64]] = [:], extraIncrements: Int64 = 0,
               writers: [Int]) throws {
        let rows = Array(try storeRows(path).values)
        for n in writers {
            let owner = "w\(n)"
            let actual = Dictionary(uniqueKeysWithValues: rows.filter { $0.owner == owner }.map { ($0.key, $0.value) })
            #expect(actual == (replay.rows[owner] ?? [:]), "private rows of \(owner)")
            let tally = rows.first { $0.owner == "tally" && $0.key == Int64(n) }?.value ?? 0
            #expect(tally == (replay.inserts[owner] ?? 0), "tally of \(owner)")
        }
        for (owner, expected) in extraOwners {
            let actual = Dictionary(uniqueKeysWithValues: rows.filter { $0.owner == owner }.map { ($0.key, $0.value) })
            #expect(actual == expected, "rows of \(owner)")
        }
        let counters = rows.filter { $0.owner == "shared" }
        #expect(counters.count == 4)
        for c in counters {
            #expect(c.value == (replay.increments[c.key] ?? 0) + (c.key == 0 ? extraIncrements : 0), "shared counter \(c.key)")
        }
        let known = Set(writers.map { "w\($0)" }).union(extraOwners.keys).union(["shared", "tally"])
        #expect(rows.allSatisfy { known.contains($0.owner) })
    }

    @Test func fourWritersTwoThousandSavesEach() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        let observer = try ViewObserver(path: path)
        let started = Date()
        let writers = try (1...4).map { try writer(path, $0, saves: 2_000, seed: UInt64(100 + $0)) }
        for w in writers { #expect(await w.waitForExit(timeout: 600), "writer still running") }
        let elapsed = Date().timeIntervalSince(started)
        let retries = writers.map { Int($0.stderr.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "") ?? 0 }.reduce(0, +)
        print("MultiProcess: 4 writers x 2000 saves took \(String(format: "%.1f", elapsed)) s; \(retries) conflict/busy retries; observer saw \(observer.events) events")
        var replay = Replay()
        for (i, w) in writers.enumerated() {
            #expect(w.process.terminationStatus == 0, "writer \(i + 1): \(w.stderr)")
            #expect(w.stderr.hasPrefix("retries "), "\(w.stderr)")
            #expect(w.lineCount == 2_000, "writer \(i + 1) reported \(w.lineCount) saves")
            try replay.apply(w.lines, owner: "w\(i + 1)")
        }
        try check(path: path, replay: replay, writers: [1, 2, 3, 4])
        #expect(try await observer.settle(path: path, timeout: 60), "the observer's view differs from the store: \(observer.difference(path: path))")
        #expect(observer.failures.isEmpty, "\(observer.failures)")
        #expect(observer.believed.count == (try storeRows(path)).count)
    }

    @Test func sqliteShellAsOneOfTheWriters() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        let observer = try ViewObserver(path: path)
        // sqlite3: single-row transactions — inserts of its own rows, and increments of counter 0
        // that bump _version so Vellum writers see the conflict.
        var script = ".timeout 5000\n"
        var sqlRows: [Int64: Int64] = [:]
        var sqlIncrements: Int64 = 0
        for i in 1...1_500 {
            if i % 3 == 0 {
                script += "UPDATE \"Row\" SET value = value + 1, \"_version\" = \"_version\" + 1 WHERE owner = 'shared' AND key = 0;\n"
                sqlIncrements += 1
            } else {
                script += "INSERT INTO \"Row\" (\"_entity\", owner, key, value) VALUES ('Row', 'sql', \(i), \(i * 7));\n"
                sqlRows[Int64(i)] = Int64(i * 7)
            }
        }
        let started = Date()
        let writers = try (1...3).map { try writer(path, $0, saves: 1_000, seed: UInt64(200 + $0)) }
        let shell = try await Task.detached { try runSQLite(path, script) }.value
        for w in writers { #expect(await w.waitForExit(timeout: 600)) }
        print("MultiProcess: 3 writers x 1000 saves + sqlite3 x 1500 took \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
        #expect(shell.status == 0 && shell.err.isEmpty, "\(shell.err)")
        var replay = Replay()
        for (i, w) in writers.enumerated() {
            #expect(w.process.terminationStatus == 0, "writer \(i + 1): \(w.stderr)")
            #expect(w.lineCount == 1_000)
            try replay.apply(w.lines, owner: "w\(i + 1)")
        }
        try check(path: path, replay: replay, extraOwners: ["sql": sqlRows], extraIncrements: sqlIncrements, writers: [1, 2, 3])
        #expect(try await observer.settle(path: path, timeout: 60), "the observer's view differs from the store: \(observer.difference(path: path))")
        #expect(observer.failures.isEmpty, "\(observer.failures)")
    }

    @Test func killDashNineLosesNothingReportedAndLeavesNoPartialSave() async throws {
        let dir = TempDir()
        let path = dir.path("rows.vellum")
        try CLIFixtures.makeRowStore(at: path)
        let victim = try writer(path, 1, saves: 1_000_000, seed: 7)
        let other = try writer(path, 2, saves: 300, seed: 8)
        #expect(await victim.waitForLines(timeout: 300) { $0.count >= 300 }, "\(victim.stderr)")
        victim.signal(SIGKILL)
        #expect(await victim.waitForExit(timeout: 30))
        #expect(victim.process.terminationReason == .uncaughtSignal)
        #expect(await other.waitForExit(timeout: 300))
        #expect(other.process.terminationStatus == 0, "\(other.stderr)")

        var replay = Replay()
        try replay.apply(victim.lines, owner: "w1")
        try replay.apply(other.lines, owner: "w2")
        #expect(replay.lines >= 600)
        let rows = Array(try storeRows(path).values)
        let actual = Dictionary(uniqueKeysWithValues: rows.filter { $0.owner == "w1" }.map { ($0.key, $0.value) })
        let expected = replay.rows["w1"] ?? [:]
        let tally = rows.first { $0.owner == "tally" && $0.key == 1 }?.value ?? 0
        let inserts = replay.inserts["w1"] ?? 0
        // At most one save committed after the last line it printed (killed between commit and print).
        #expect(tally == inserts || tally == inserts + 1, "tally \(tally), reported inserts \(inserts)")
        #expect(actual.keys.allSatisfy { $0 <= tally }, "a private row without its tally bump")
        if tally == inserts + 1 {
            // The unreported save was an insert: its row and its tally bump are both there.
            #expect(actual[tally] != nil)
            var rest = actual; rest[tally] = nil
            #expect(rest == expected)
        } else {
            // Every reported save is there; at most one unreported update/delete/increment on top.
            let differing = Set(actual.keys).union(expected.keys).filter { actual[$0] != expected[$0] }
            #expect(differing.count <= 1, "\(differing)")
        }
        let counterTotal = rows.filter { $0.owner == "shared" }.map(\.value).reduce(0, +)
        let reportedIncrements = replay.increments.values.reduce(0, +)
        #expect(counterTotal == reportedIncrements || counterTotal == reportedIncrements + 1)

        // Life goes on: an observer and a restarted writer 1 plus a new writer 3.
        let observer = try ViewObserver(path: path)
        let before = try storeRows(path)
        #expect(observer.believed == before)
        let again = try writer(path, 1, saves: 200, seed: 9)
        let third = try writer(path, 3, saves: 200, seed: 10)
        #expect(await again.waitForExit(timeout: 300))
        #expect(await third.waitForExit(timeout: 300))
        #expect(again.process.terminationStatus == 0, "\(again.stderr)")
        #expect(third.process.terminationStatus == 0, "\(third.stderr)")
        #expect(again.lineCount == 200 && third.lineCount == 200)
        var after = Replay()
        try after.apply(third.lines, owner: "w3")
        let w3 = Dictionary(uniqueKeysWithValues: try storeRows(path).values.filter { $0.owner == "w3" }.map { ($0.key, $0.value) })
        #expect(w3 == (after.rows["w3"] ?? [:]))
        let tally1 = try storeRows(path).values.first { $0.owner == "tally" && $0.key == 1 }?.value ?? 0
        try after.apply(again.lines, owner: "w1")
        #expect(tally1 == tally + (after.inserts["w1"] ?? 0))
        #expect(try await observer.settle(path: path, timeout: 60), "the observer's view differs from the store: \(observer.difference(path: path))")
        #expect(observer.failures.isEmpty, "\(observer.failures)")
    }
}
