import Foundation
import VellumStore

/// `_stress-writer --observe`: the writer's container merges every save (its own and
/// other processes') into its view context, whose changes keep a map of the rows it
/// believes stored, and two results controllers follow it (every row by owner and key;
/// the rows of value ≥ 500,000 — rows move in and out as values change). At the end
/// both must equal what a fresh context reads from the store.
@MainActor
final class StressObserver {
    struct Row: Equatable, CustomStringConvertible {
        var owner: String
        var key: Int64
        var value: Int64
        var description: String { "\(owner)/\(key)=\(value)" }
    }

    private let container: PersistentContainer
    private(set) var believed: [ObjectID: Row] = [:]
    /// Rows whose reading failed while the server was away, read again before comparing.
    private var unread: Set<ObjectID> = []
    private var failures: [String] = []
    private let lists: [ResultsController]

    static let requests: [FetchRequest] = {
        let order = [QuerySortDescriptor("owner"), QuerySortDescriptor("key")]
        return [FetchRequest(entityName: "Row", sortDescriptors: order),
                FetchRequest(entityName: "Row", predicate: Key("value") >= Int64(500_000), sortDescriptors: order)]
    }()

    init(container: PersistentContainer) throws {
        self.container = container
        container.automaticallyMergesChanges = true
        let context = container.viewContext
        lists = Self.requests.map { ResultsController(fetchRequest: $0, context: context) }
        container.onMergeError { [weak self] error in self?.failures.append("merge: \(error)") }
        context.observeChanges { [weak self] event in self?.handle(event) }
        believed = try Self.rows(context)
        for list in lists { try list.performFetch() }
    }

    private static func rows(_ context: ManagedObjectContext) throws -> [ObjectID: Row] {
        var rows: [ObjectID: Row] = [:]
        for o in try context.fetch("Row") { rows[o.objectID] = try row(o) }
        return rows
    }

    private static func row(_ o: ManagedObject) throws -> Row {
        Row(owner: try o.value(forKey: "owner").stringValue ?? "?", key: try o.value(forKey: "key").integerValue ?? -1,
            value: try o.value(forKey: "value").integerValue ?? -1)
    }

    private func handle(_ event: ObjectsDidChange) {
        if event.invalidatedAll || event.storeChangedExternally {
            do { believed = try Self.rows(container.viewContext) } catch { failures.append("refetch: \(error)") }
            return
        }
        let gone = event.deleted.union(event.invalidated)
        for id in gone { believed[id] = nil }
        for id in event.inserted.union(event.updated).union(event.refreshed).subtracting(gone) { read(id) }
    }

    private func read(_ id: ObjectID) {
        do {
            believed[id] = try Self.row(container.viewContext.existingObject(with: id))
            unread.remove(id)
        } catch let error as StoreError where error.isServerUnavailable {
            unread.insert(id)
        } catch {
            // Deleted again by a save not merged yet: its delete event follows.
            believed[id] = nil
            unread.remove(id)
        }
    }

    /// Nil when the view and both lists equal the store; otherwise what differs.
    private func difference() -> String? {
        for id in unread { read(id) }
        if !failures.isEmpty { return failures.prefix(3).joined(separator: "; ") }
        if let error = lists.compactMap(\.lastError).first { return "a list failed to update: \(error)" }
        do {
            let fresh = try ManagedObjectContext(store: container.store)
            let stored = try Self.rows(fresh)
            if believed != stored {
                let wrong = Set(believed.keys).union(stored.keys).filter { believed[$0] != stored[$0] }
                let sample = wrong.prefix(3).map { "\(believed[$0]?.description ?? "none") vs stored \(stored[$0]?.description ?? "none")" }
                return "the view context holds \(believed.count) rows, the store \(stored.count); \(wrong.count) differ: \(sample.joined(separator: ", "))"
            }
            for (list, request) in zip(lists, Self.requests) {
                let shown = list.snapshot.objectIDs, expected = try fresh.fetch(request).map(\.objectID)
                if shown != expected { return "a results controller shows \(shown.count) rows, the store has \(expected.count) (\(request.predicate.map { "\($0)" } ?? "all"))" }
            }
        } catch {
            return "reading the store: \(error)"
        }
        return nil
    }

    /// Waits (polling every 100 ms) until the view and lists equal the store; the last difference after `timeout` seconds.
    func settle(timeout: Double) async -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        var last = difference()
        while let _ = last, Date() < deadline {
            try? await Task.sleep(nanoseconds: 100_000_000)
            last = difference()
        }
        return last
    }

    /// Returns at the first line, or the end, of standard input (read on a thread of its own).
    static func waitForInput() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                _ = readLine()
                done.resume()
            }
        }
    }
}
