import Foundation
import Testing
@testable import VellumStore

/// The engines the context, history and results-controller suites run against (one
/// parameterised suite each, issue #18): a SQLite file, or a fresh schema of the test
/// process's PostgreSQL cluster. Each gives the store and a way to write and read as
/// another program would (the `sqlite3` shell, or a plain connection like `psql`).
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    struct Opened {
        let store: PersistentStore
        /// Runs SQL (identifiers quoted, so both engines read it) outside Vellum.
        let outside: (String) throws -> Void
        /// Reads rows with SQL (identifiers quoted) outside Vellum.
        let read: (String) throws -> [[Value]]

        /// What another program reads, as the `sqlite3` shell prints it: a line per row,
        /// values separated by `|`, NULL as nothing.
        func text(_ sql: String) throws -> String {
            try read(sql).map { row in row.map(Self.shellText).joined(separator: "|") }.joined(separator: "\n")
        }

        private static func shellText(_ value: Value) -> String {
            switch value {
            case .null: return ""
            case .integer(let i): return "\(i)"
            case .double(let d): return "\(d)"
            case .string(let s): return s
            default: return "\(value)"
            }
        }

        /// The rows of `table` as another program counts them.
        func count(_ table: String) throws -> Int64? { try read("SELECT count(*) FROM \"\(table)\"").first?.first?.integerValue }
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
            return Opened(store: try PersistentStore(url: dir.file("h.sqlite"), model: model), outside: { sql in
                let r = try runSQLite(path, sql)
                guard r.status == 0 else { throw StoreError.invalidOperation("sqlite3: \(r.err)") }
            }, read: { sql in try Connection(path: path).rows(sql) })
        case .postgresql:
            let url = try PostgreSQLCluster.shared().makeSchema("h")
            return Opened(store: try PersistentStore(postgreSQL: PostgreSQLURL(url), model: model), outside: { sql in
                try PGConnection(url: url).execute(sql)
            }, read: { sql in try PGConnection(url: url).rows(sql) })
        }
    }
}
