import Foundation
import Testing
@testable import VellumStore

/// The engines the history tests run against: a SQLite file, or a fresh schema of
/// the test process's PostgreSQL cluster. Each gives the store and a way to write
/// as another program would (the `sqlite3` shell, or a plain connection like `psql`).
enum HistoryBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    struct Opened {
        let store: PersistentStore
        /// Runs SQL (identifiers quoted, so both engines read it) outside Vellum.
        let outside: (String) throws -> Void
    }

    func open(_ model: ManagedObjectModel, in dir: TempDir) throws -> Opened {
        switch self {
        case .sqlite:
            let path = dir.file("h.sqlite").path
            return Opened(store: try PersistentStore(url: dir.file("h.sqlite"), model: model)) { sql in
                let r = try runSQLite(path, sql)
                guard r.status == 0 else { throw StoreError.invalidOperation("sqlite3: \(r.err)") }
            }
        case .postgresql:
            let url = try PostgreSQLCluster.shared().makeSchema("h")
            return Opened(store: try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model)) { sql in
                try PGConnection(url: url).execute(sql)
            }
        }
    }
}
