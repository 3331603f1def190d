import Foundation
import VellumStore

/// Runs a declarative write again when another writer changed its objects
/// between the read and the save (an optimistic-locking conflict): each attempt
/// re-reads the objects and re-applies the same request, so nothing the other
/// writer did is overwritten. After `attempts` tries the conflict is reported.
enum ConflictRetry {
    static let defaultAttempts = 8

    static func run<T: Sendable>(attempts: Int = defaultAttempts, isolation: isolated (any Actor)? = #isolation,
                                 _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do { return try await body() } catch let error as StoreError {
                guard case .conflicts(let conflicts) = error, conflicts.allSatisfy(\.isVersionConflict) else { throw error }
                if attempt >= attempts {
                    throw CLIError.runtime("nothing written: the objects kept changing under another writer "
                                           + "(a version conflict on each of \(attempts) attempts); try again.\n" + error.description)
                }
                attempt += 1
                // A short random pause lets the other writer finish its run of saves.
                try await Task.sleep(nanoseconds: UInt64.random(in: 1_000_000...(5_000_000 << min(attempt, 5))))
            }
        }
    }
}

private extension MergeConflict {
    var isVersionConflict: Bool { if case .version = kind { return true } else { return false } }
}
