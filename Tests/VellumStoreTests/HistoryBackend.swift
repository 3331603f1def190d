import Foundation
import Testing
@testable import VellumStore

/// The engines the history and results-controller tests run against: a SQLite file, or a fresh schema of
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

    /// A container over a new store of `model`: a file in `dir`, or a fresh schema.
    func container(_ model: ManagedObjectModel, in dir: TempDir) throws -> PersistentContainer {
        switch self {
        case .sqlite: return try PersistentContainer(model: model, storeURL: dir.file("c.sqlite"))
        case .postgresql:
            let url = try PostgreSQLCluster.shared().makeSchema("c")
            guard let storeURL = URL(string: url) else { throw StoreError.invalidOperation("not a URL: \(url)") }
            return try PersistentContainer(model: model, storeURL: storeURL)
        }
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
