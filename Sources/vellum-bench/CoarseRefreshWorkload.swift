import Foundation
import VellumStore

/// foreign-remote-refresh-*: another connection's one-row update to its change set
/// in an open, sorted results controller on the view context, when the store
/// knows changes only coarsely (no history: the path an untracked foreign
/// database takes): data_version → refetch off the main thread → diff applied on it.
enum CoarseRefreshWorkload {
    @MainActor static func latencies(at url: URL, rowCount: Int, updates: Int) async throws -> [Double] {
        var options = StoreOptions(createIfMissing: false)
        options.changeDetection = .coarse
        let container = try PersistentContainer(model: nil, storeURL: url, options: options)
        let controller = ResultsController(fetchRequest: LiveWorkload.controllerRequest, context: container.viewContext)
        let probe = DeliveryProbe()
        controller.delegate = probe
        try controller.performFetch()
        guard controller.fetchedObjectCount == rowCount else {
            throw BenchError("controller holds \(controller.fetchedObjectCount) objects, expected \(rowCount)")
        }
        let writer = try Connection(path: url.path)
        var latencies: [Double] = []
        for i in 0..<updates {
            let pk = Int64.random(in: 1...Int64(rowCount))
            let before = probe.deliveries
            let t0 = Clocks.monotonicNanos()
            // A key no row has: the row always moves, so a change set always follows.
            try writer.run("UPDATE Record SET key = ? WHERE _pk = ?", [.integer(-Int64(i) - 1), .integer(pk)])
            let deadline = Date().addingTimeInterval(60)
            while probe.deliveries == before {
                if Date() > deadline { throw BenchError("foreign-remote-refresh: update \(i) never reached the controller") }
                try await Task.sleep(for: .milliseconds(1))
            }
            latencies.append(Clocks.ms(from: t0, to: probe.lastDelivery))
        }
        return latencies
    }
}
