import Foundation
import Testing
@testable import VellumStore

/// The engines the store, context, history and results-controller suites run against (one
/// parameterised suite each, issue #18): a SQLite file, or a fresh schema of the test
/// process's PostgreSQL cluster. Each gives the store and a way to write and read as
/// another program would (the `sqlite3` shell, or a plain connection like `psql`).
enum StoreEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgresql

    var testDescription: String { rawValue }

    /// Where a store lives, whether or not one is there yet: a file, or a schema's URL.
    struct Location {
        let engine: StoreEngine
        /// A file URL, or a `postgresql://` URL (as `PersistentContainer` and the `vellum` tool take).
        let url: URL

        /// Opens (or, with `createIfMissing`, creates) the store here; with `model` nil, the stored one.
        func store(_ model: ManagedObjectModel?, options: StoreOptions = StoreOptions()) throws -> PersistentStore {
            switch engine {
            case .sqlite: return try PersistentStore(url: url, model: model, options: options)
            case .postgresql: return try PersistentStore(postgreSQL: PostgreSQLURL(url.absoluteString), model: model, options: options)
            }
        }

        /// Runs SQL (identifiers quoted, so both engines read it) outside Vellum.
        func outside(_ sql: String) throws {
            switch engine {
            case .sqlite:
                let r = try runSQLite(url.path, sql)
                guard r.status == 0 else { throw StoreError.invalidOperation("sqlite3: \(r.err)") }
            case .postgresql: try PGConnection(url: url.absoluteString).execute(sql)
            }
        }

        /// Reads rows with SQL (identifiers quoted) outside Vellum.
        func read(_ sql: String) throws -> [[Value]] {
            switch engine {
            case .sqlite: return try Connection(path: url.path).rows(sql)
            case .postgresql: return try PGConnection(url: url.absoluteString).rows(sql)
            }
        }

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

    /// A store, and its location for reading and writing there as another program would.
    struct Opened {
        let store: PersistentStore
        let location: Location

        var engine: StoreEngine { location.engine }
        func outside(_ sql: String) throws { try location.outside(sql) }
        func read(_ sql: String) throws -> [[Value]] { try location.read(sql) }
        func text(_ sql: String) throws -> String { try location.text(sql) }
        func count(_ table: String) throws -> Int64? { try location.count(table) }
        /// Another store over the same file or schema, as a second program would open it.
        func reopen(_ model: ManagedObjectModel?, options: StoreOptions = StoreOptions()) throws -> PersistentStore {
            try location.store(model, options: options)
        }
    }

    /// A place that holds no store yet: `name`.sqlite in `dir`, or a fresh schema `name`.
    func location(_ name: String, in dir: TempDir) throws -> Location {
        switch self {
        case .sqlite: return Location(engine: self, url: dir.file("\(name).sqlite"))
        case .postgresql:
            let url = try PostgreSQLCluster.shared().makeSchema(name)
            guard let schemaURL = URL(string: url) else { throw StoreError.invalidOperation("not a URL: \(url)") }
            return Location(engine: self, url: schemaURL)
        }
    }

    /// A container over a new store of `model`: a file in `dir`, or a fresh schema.
    func container(_ model: ManagedObjectModel, in dir: TempDir) throws -> PersistentContainer {
        try PersistentContainer(model: model, storeURL: location("c", in: dir).url)
    }

    /// A new store of `model`: a file in `dir`, or a fresh schema.
    func open(_ model: ManagedObjectModel, in dir: TempDir) throws -> Opened {
        let location = try location("h", in: dir)
        return Opened(store: try location.store(model), location: location)
    }
}
