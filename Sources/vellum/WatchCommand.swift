import Foundation
import VellumStore
import VellumTerminal

/// `vellum watch STORE [--json]`: prints the change feed of other writers until SIGINT/SIGTERM.
struct WatchCommand: AsyncCommand {
    static let name = "watch"
    static let summary = "Print changes as other writers make them (until Ctrl-C)"
    static let help = """
        Usage: vellum watch STORE [--json] [--read-only]
               vellum watch postgresql://… [--json]

        Prints every change other writers commit to STORE from now on — Vellum
        processes and apps, and the sqlite3 shell (recorded by the store's history
        triggers) — one line per changed object:

          TIME  AUTHOR  ENTITY  OBJECT-URI  KIND  CHANGED-FIELDS

        KIND is insert, update or delete; AUTHOR is '-' for writes made outside
        Vellum; CHANGED-FIELDS lists the changed attributes and to-one
        relationships of updates ('-' if none). A write that records no history
        prints one line of kind 'unknown'. Runs until interrupted (SIGINT or
        SIGTERM), then exits 0. Output is written line by line (safe to pipe).
        Once watching, it says so on stderr ('vellum: watching STORE'). When the
        file at STORE is deleted or replaced by another one, it says so on stderr
        and watches the new file once one is there. STORE may be a PostgreSQL
        store's URL: other machines' commits and psql's writes are printed alike.

        Options:
          --json    one JSON object per line:
                    {"time","author","entity","object","kind","changed":[...]}
          --read-only  open the store read-only (automatic when the file or its
                    folder is not writable; said on stderr)
        \(StoreArguments.help)
          --help    show this help

        """
    static let spec = ArgumentSpec(flags: [StoreArguments.noForeignKeysFlag, "json", ReadOnlyNotice.flag], options: ["model"])

    static func runAsync(_ arguments: ParsedArguments, console: Console) async throws {
        let path = try VellumCLI.positionals(arguments, ["STORE"], command: name)[0]
        let readOnly = arguments.has(ReadOnlyNotice.flag)
        let json = arguments.has("json")
        let out = Unchecked(console.out)
        func open() throws -> (PersistentContainer, UUID) {
            let container = try StoreSupport.openContainer(path, author: "vellum-watch", readOnly: readOnly, console: console, given: StoreArguments(arguments))
            let id = container.observeRemoteChanges { change in
                for line in lines(for: change, json: json) { out.value(line + "\n") }
            }
            return (container, id)
        }
        var watched: (PersistentContainer, UUID)? = try open()
        var stamp = FileStamp(path)
        // On stderr, so stdout stays pure data; tests wait for it before writing.
        console.err("vellum: watching \(path) (Ctrl-C to stop)\n")
        let stop = Once()
        Task { @MainActor in
            await waitForTermination()
            _ = stop.claim()
        }
        // The path may come to name another file (deleted and recreated, replaced by a
        // rename): the open store would then be a deleted one. Notice it and reopen.
        while !stop.isClaimed {
            try? await Task.sleep(nanoseconds: 200_000_000)
            // A server store has no file to be replaced; its monitor reconnects by itself.
            if PersistentStore.isServerLocation(path) { continue }
            let now = FileStamp(path)
            if watched != nil && now.isSameFile(as: stamp) { continue }
            if let (container, id) = watched {
                container.removeRemoteObserver(id)
                watched = nil
                console.err(now.exists ? "vellum: \(path) was replaced by another file; reopening\n"
                                       : "vellum: \(path) was deleted; waiting for a store to appear there\n")
            }
            guard now.exists else { stamp = now; continue }
            do {
                watched = try open()
                stamp = now
                console.err("vellum: watching \(path) again (a new file)\n")
            } catch {
                if !now.isSameFile(as: stamp) { console.err("vellum: \(path) cannot be opened yet: \(VellumCLI.describe(error)); retrying\n") }
                stamp = now
            }
        }
        if let (container, id) = watched { container.removeRemoteObserver(id) }
    }

    static let timeStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func lines(for change: RemoteChange, json: Bool) -> [String] {
        switch change {
        case .unknown:
            let time = Date().formatted(timeStyle)
            if json {
                return [ExportText.jsonObject([("time", ExportText.jsonString(time)), ("author", "null"), ("entity", "null"),
                                         ("object", "null"), ("kind", ExportText.jsonString("unknown")), ("changed", "[]")])]
            }
            return ["\(time)  -  -  -  unknown  -"]
        case .transactions(let transactions):
            var result: [String] = []
            for t in transactions {
                let time = t.timestamp.formatted(timeStyle)
                for c in t.changes {
                    let kind: String
                    switch c.kind {
                    case .insert: kind = "insert"
                    case .update: kind = "update"
                    case .delete: kind = "delete"
                    }
                    let fields = c.changedKeys.sorted()
                    if json {
                        result.append(ExportText.jsonObject([
                            ("time", ExportText.jsonString(time)),
                            ("author", t.author.map(ExportText.jsonString) ?? "null"),
                            ("entity", ExportText.jsonString(c.objectID.entityName)),
                            ("object", ExportText.jsonString(c.objectID.uriString)),
                            ("kind", ExportText.jsonString(kind)),
                            ("changed", "[" + fields.map(ExportText.jsonString).joined(separator: ",") + "]"),
                        ]))
                    } else {
                        result.append([time, t.author ?? "-", c.objectID.entityName, c.objectID.uriString, kind,
                                       fields.isEmpty ? "-" : fields.joined(separator: ",")].joined(separator: "  "))
                    }
                }
            }
            return result
        }
    }

    /// Suspends until SIGINT or SIGTERM arrives.
    static func waitForTermination() async {
        let queue = DispatchQueue(label: "vellum.watch.signals")
        let once = Once()
        let observer = Unchecked<SignalObserver?>(nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            observer.value = SignalObserver(signals: [SIGINT, SIGTERM], queue: queue) { _ in
                if once.claim() { continuation.resume() }
            }
        }
        observer.value?.cancel()
    }
}

/// A value moved across a `@Sendable` boundary where the caller guarantees serial use.
// Unchecked: its one use is the console's `out`, called only from the monitor's serial queue.
final class Unchecked<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// True exactly once, from any thread.
final class Once: Sendable {
    private let done = Locked(false)
    func claim() -> Bool { done.withLock { done in if done { return false }; done = true; return true } }
    var isClaimed: Bool { done.withLock { $0 } }
}
