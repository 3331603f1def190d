import Foundation
import VellumStore

/// Another program writing the store through the `sqlite3` shell, as a script
/// would: plain SQL, no version bump of its own, one transaction per write, with
/// foreign keys enforced as an app's connection would (the shell's default is off,
/// which let it point an item at a person the user had deleted: a dangling reference
/// that the user's undo of the delete then "overwrote" with the same value).
/// Every write it makes is logged once the shell has exited with success and
/// reported the row count, so the audit knows which writes were acknowledged.
final class ExternalSQLWriter: @unchecked Sendable {
    struct Write: Sendable {
        enum Kind: Sendable { case update, insert, delete }
        var kind: Kind
        var pk: Int64
        /// The column changed (updates) and the value written, as `sqlite3` prints it ("" for NULL).
        var column: String?
        var value: String?
        var acknowledgedAt: Double
    }

    private let path: String
    private let lock = NSLock()
    private var stopRequested = false
    private var log: [Write] = []
    private var failed: [String] = []
    private var thread: Thread?
    private let done = DispatchSemaphore(value: 0)

    init(path: String) { self.path = path }

    var acknowledged: [Write] { lock.withLock { log } }
    /// Unique values of writes the shell did not acknowledge (they must not appear in the store).
    var failedValues: [String] { lock.withLock { failed } }

    /// Writes until `stop()`, one write every `interval` seconds, choosing rows among `pks`
    /// (plus the rows it inserts itself) and owners among `owners`.
    func start(seed: UInt64, pks: [Int64], owners: [Int64], interval: TimeInterval) {
        let t = Thread { [self] in
            var rng = SplitMix64(seed: seed)
            var rows = pks
            var counter: Int64 = 0
            while !lock.withLock({ stopRequested }) {
                counter += 1
                let token = 900_000 + counter
                let pk = rows[Int(rng.next() % UInt64(rows.count))]
                switch rng.next() % 20 {
                case 0..<7: update(pk: pk, column: "qty", sqlValue: "\(token)", printed: "\(token)")
                case 7..<13: update(pk: pk, column: "note", sqlValue: "'\(token)'", printed: "\(token)")
                case 13..<17:
                    let owner = owners[Int(rng.next() % UInt64(owners.count))]
                    update(pk: pk, column: "owner", sqlValue: "\(owner)", printed: "\(owner)")
                case 17..<19:
                    if let new = insert(token: token) { rows.append(new) }
                default:
                    if rows.count > 6 { delete(pk: pk); rows.removeAll { $0 == pk } }
                }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
        thread = t
        t.start()
    }

    func stop() {
        lock.withLock { stopRequested = true }
        if thread != nil { done.wait() }
    }

    private func run(_ sql: String) -> String? {
        guard let r = try? runSQLite(path, ".timeout 10000\nPRAGMA foreign_keys = ON;\nBEGIN IMMEDIATE;\n\(sql)\nCOMMIT;\n"),
              r.status == 0, r.err.isEmpty else { return nil }
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func update(pk: Int64, column: String, sqlValue: String, printed: String) {
        let out = run("UPDATE Item SET \"\(column)\" = \(sqlValue) WHERE _pk = \(pk) AND \"\(column)\" IS NOT \(sqlValue); SELECT changes();")
        let now = Date().timeIntervalSince1970
        lock.withLock {
            if out == "1" {
                log.append(Write(kind: .update, pk: pk, column: column, value: printed, acknowledgedAt: now))
            } else if out == nil, column != "owner" {
                // Owners are person keys, not unique tokens: one refused (the person was
                // deleted) may be a value the user set legitimately, so it proves nothing.
                failed.append(printed)
            }
        }
    }

    private func insert(token: Int64) -> Int64? {
        let out = run("INSERT INTO Item (_entity, _version, name, qty) VALUES ('Item', 1, '\(token)', \(token)); SELECT last_insert_rowid();")
        let now = Date().timeIntervalSince1970
        return lock.withLock {
            guard let out, let pk = Int64(out) else { failed.append("\(token)"); return nil }
            log.append(Write(kind: .insert, pk: pk, column: nil, value: "\(token)", acknowledgedAt: now))
            return pk
        }
    }

    private func delete(pk: Int64) {
        let out = run("DELETE FROM Item WHERE _pk = \(pk); SELECT changes();")
        let now = Date().timeIntervalSince1970
        lock.withLock {
            if out == "1" { log.append(Write(kind: .delete, pk: pk, column: nil, value: nil, acknowledgedAt: now)) }
        }
    }
}
