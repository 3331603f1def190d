import Foundation
import VellumStore

/// How `_stress-writer` learns whether the save in flight when the server went away
/// (a restart, a lost connection) committed: one writer makes one save at a time, each
/// recorded as one history transaction of its author, so once the server answers, the
/// author's count of transactions says whether the lost save is among them.
@MainActor
final class SaveRecovery {
    private let container: PersistentContainer
    private let author: String
    /// The author's history transactions when the writer started (server stores only).
    private let baseline: Int64?
    /// Saves reported since.
    var acknowledged: Int64 = 0

    init(container: PersistentContainer, author: String) async throws {
        self.container = container
        self.author = author
        baseline = container.store.remoteEngine == nil ? nil
            : try await Self.untilTheServerAnswers { try Self.transactions(of: author, in: container) }
    }

    /// True when the save that failed with server trouble committed before the loss.
    func committedBeforeTheLoss() async throws -> Bool {
        guard let baseline else { return false }
        let recorded = try await Self.untilTheServerAnswers { try Self.transactions(of: author, in: container) }
        switch recorded - baseline - acknowledged {
        case 0: return false
        case 1: return true
        case let n: throw CLIError.runtime("\(author): \(n) saves recorded in the store's history that were never reported")
        }
    }

    private static func transactions(of author: String, in container: PersistentContainer) throws -> Int64 {
        try container.store.withWriter { c in
            try c.scalarInt("SELECT count(*) FROM _vellum_transactions WHERE author = ?", [.string(author)]) ?? 0
        }
    }

    /// `body`, asked again every 100 ms while the server is away (up to `timeout` seconds).
    static func untilTheServerAnswers<T>(timeout: Double = 180, _ body: () async throws -> T) async throws -> T {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do { return try await body() } catch let error as StoreError where error.isServerUnavailable && Date() < deadline {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
    }
}
