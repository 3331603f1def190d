import Foundation
import VellumStore

/// `vellum _stress-writer STORE --writer N --saves K --seed S` (hidden; used by the
/// multi-process tests). The store's model must have an entity `Row` with
/// `owner` (string), `key` and `value` (integer64). Each of the K saves is one
/// mixed operation, saved on its own through the write queue:
///
/// - `insert`: a private row (owner `wN`, key = the writer's next number) and, in
///   the same save, the writer's tally row (owner `tally`, key N) bumped to that number;
/// - `update` / `delete` of one of the writer's private rows;
/// - `increment` of a shared counter row (owner `shared`, key 0...3, created by the
///   caller), retried on an optimistic-locking conflict so no increment is lost.
///
/// After each committed save it prints `ok <i> <op> <detail>` (written unbuffered).
///
/// A save that fails because the server went away (a restart, a lost connection) is
/// not simply run again: once the server answers, the writer counts its own history
/// transactions (`SaveRecovery`) to learn whether the save committed before the loss,
/// so a COMMIT whose outcome was unknown is reported once and never applied twice.
///
/// With `--observe`, the container merges every save into its view context, which two
/// results controllers follow (`StressObserver`); after the last save the writer says
/// `saves done` on stderr, waits for a line (or the end) on stdin — the other writers
/// are done too — and then for its view and lists to equal the store, saying
/// `view equal <rows>` (or `view differs: …` and exit status 1).
struct StressWriterCommand: AsyncCommand {
    static let name = "_stress-writer"
    static let summary = "Test helper: many small saves on Row objects"
    static let isHidden = true
    static let help = """
        Usage: vellum _stress-writer STORE --writer N --saves K --seed S [--observe]

        Test helper (hidden). Makes K separate saves of mixed operations on the
        store's Row entity (owner, key, value) and prints 'ok <i> <op> <detail>'
        after each committed save. Shared counters: owner 'shared', keys 0-3.
        --observe: follow the store in a view context and results controllers;
        after the saves, wait for stdin, then for them to equal the store.

        """
    static let spec = ArgumentSpec(flags: ["observe"], options: ["writer", "saves", "seed"])
    static let sharedCounters: Int64 = 4

    enum Op: String, Sendable { case insert, update, delete, increment }

    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        let path = try VellumCLI.positionals(arguments, ["STORE"], command: name)[0]
        guard let writer = arguments.option("writer").flatMap(Int64.init),
              let saves = arguments.option("saves").flatMap(Int.init),
              let seed = arguments.option("seed").flatMap(UInt64.init) else {
            throw CLIError.usage("needs --writer N --saves K --seed S (integers)", command: name)
        }
        let author = "writer-\(writer)"
        let container = try StoreSupport.openContainer(path, author: author)
        let observer = arguments.flags.contains("observe") ? try StressObserver(container: container) : nil
        let recovery = try await SaveRecovery(container: container, author: author)
        let owner = "w\(writer)"
        // Resume from what the store holds (a restarted writer carries on).
        var live: [Int64: Int64] = try await container.enqueue { context in
            var rows: [Int64: Int64] = [:]
            for o in try context.fetch("Row", where: Key("owner") == owner) {
                rows[try o.value(forKey: "key").integerValue ?? 0] = try o.value(forKey: "value").integerValue ?? 0
            }
            return rows
        }
        var rng = SplitMix64(seed: seed)
        var retries = 0
        for i in stride(from: 1, through: saves, by: 1) {
            var drawn: Op
            switch rng.next() % 10 {
            case 0..<4: drawn = .insert
            case 4..<6: drawn = .update
            case 6: drawn = .delete
            default: drawn = .increment
            }
            if live.isEmpty && (drawn == .update || drawn == .delete) { drawn = .insert }
            let op = drawn
            let keys = live.keys.sorted()
            let target = keys.isEmpty ? 0 : keys[Int(rng.next() % UInt64(keys.count))]
            let value = Int64(rng.next() % 1_000_000)
            let counter = Int64(rng.next() % UInt64(sharedCounters))
            var attempt = 0
            while true {
                do {
                    let detail: Detail
                    do {
                        detail = try await container.enqueue { context in
                            try perform(op, context: context, owner: owner, writer: writer, target: target, value: value, counter: counter)
                        }
                    } catch let error as StoreError where error.isServerUnavailable {
                        guard try await recovery.committedBeforeTheLoss() else { throw error }
                        detail = try await committedDetail(op, container: container, writer: writer, target: target, value: value, counter: counter)
                    }
                    recovery.acknowledged += 1
                    switch op {
                    case .insert: if let k = detail.key { live[k] = value }
                    case .update: live[target] = value
                    case .delete: live[target] = nil
                    case .increment: break
                    }
                    console.out("ok \(i) \(op.rawValue) \(detail.text)\n")
                    break
                } catch let error as StoreError {
                    attempt += 1
                    retries += 1
                    guard attempt < 10_000, isRetryable(error) else { throw error }
                    usleep(useconds_t.random(in: 0..<(attempt < 10 ? 200 : 2_000)))
                }
            }
        }
        if let observer {
            console.err("saves done\n")
            await StressObserver.waitForInput()
            let verdict = await observer.settle(timeout: 180)
            console.err(verdict.map { "view differs: \($0)\n" } ?? "view equal \(observer.believed.count)\n")
            console.err("retries \(retries)\n")
            if verdict != nil { throw CLIError.exit(1) }
            return
        }
        console.err("retries \(retries)\n")
    }

    static func isRetryable(_ error: StoreError) -> Bool {
        switch error {
        case .conflicts: return true
        default: return error.isBusy || error.isServerUnavailable
        }
    }

    /// What a save that committed unreported wrote: its inputs, and for an insert the key
    /// it took (the writer's tally, which only this writer moves, now holds it).
    static func committedDetail(_ op: Op, container: PersistentContainer, writer: Int64, target: Int64, value: Int64,
                                counter: Int64) async throws -> Detail {
        switch op {
        case .insert:
            let key = try await SaveRecovery.untilTheServerAnswers {
                try await container.enqueue { context in try row(context, owner: "tally", key: writer)?.value(forKey: "value").integerValue ?? 0 }
            }
            return Detail(text: "key=\(key) value=\(value)", key: key)
        case .update: return Detail(text: "key=\(target) value=\(value)")
        case .delete: return Detail(text: "key=\(target)")
        case .increment: return Detail(text: "counter=\(counter)")
        }
    }

    struct Detail: Sendable {
        var text: String
        var key: Int64?
    }

    static func row(_ context: ManagedObjectContext, owner: String, key: Int64) throws -> ManagedObject? {
        try context.fetch("Row", where: Key("owner") == owner && Key("key") == key, limit: 1).first
    }

    static func perform(_ op: Op, context: ManagedObjectContext, owner: String, writer: Int64,
                        target: Int64, value: Int64, counter: Int64) throws -> Detail {
        switch op {
        case .insert:
            let tally = try row(context, owner: "tally", key: writer)
                ?? context.insert("Row", values: ["owner": .string("tally"), "key": .integer(writer), "value": .integer(0)])
            let key = (try tally.value(forKey: "value").integerValue ?? 0) + 1
            try tally.setValue(.integer(key), forKey: "value")
            try context.insert("Row", values: ["owner": .string(owner), "key": .integer(key), "value": .integer(value)])
            return Detail(text: "key=\(key) value=\(value)", key: key)
        case .update:
            guard let o = try row(context, owner: owner, key: target) else { throw CLIError.runtime("private row \(target) is missing") }
            try o.setValue(.integer(value), forKey: "value")
            return Detail(text: "key=\(target) value=\(value)")
        case .delete:
            guard let o = try row(context, owner: owner, key: target) else { throw CLIError.runtime("private row \(target) is missing") }
            try context.delete(o)
            return Detail(text: "key=\(target)")
        case .increment:
            guard let o = try row(context, owner: "shared", key: counter) else { throw CLIError.runtime("shared counter \(counter) is missing") }
            try o.setValue(.integer((try o.value(forKey: "value").integerValue ?? 0) + 1), forKey: "value")
            return Detail(text: "counter=\(counter)")
        }
    }
}

