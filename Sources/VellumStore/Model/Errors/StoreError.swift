import CSQLite
import Foundation

/// Every error the store layer raises. Cases are specific enough for a caller to
/// switch on; each carries what is needed to tell the user what and why.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// SQLite refused an operation. `kind` classifies the extended code.
    case sqlite(SQLiteFailure)
    /// The file exists but is not a SQLite database.
    case notADatabase(path: String, detail: String)
    /// The file or its directory cannot be written, and a writable store was asked for.
    case readOnly(path: String)
    /// The file does not exist and creating it was not asked for.
    case fileNotFound(path: String)
    /// Only creating a new store was asked for, and something is at the path.
    case fileExists(path: String)
    /// The path cannot hold a store (a directory, an empty file, a damaged `-wal`);
    /// `reason` says which. Nothing was changed.
    case unusableFile(path: String, reason: String)
    /// The file is not a Vellum store (no metadata table).
    case notAStore(path: String)
    /// The file is a Core Data SQLite store (`Z_METADATA`, `Z_PRIMARYKEY`), whose
    /// layout Vellum does not open yet.
    case coreDataStore(path: String)
    /// Data inside a Core Data store (its model cache, metadata plist, an archived
    /// value) cannot be decoded: `what` names it, `offset` is the byte where reading failed.
    case malformedCoreData(what: String, offset: Int?, reason: String)
    /// A model given for a Core Data store does not match it: the entities whose version
    /// hashes differ from the store's `NSStoreModelVersionHashes`.
    case coreDataModelMismatch(path: String, model: String, entities: [String])
    /// The store was created from a different model.
    case modelMismatch(path: String, storeHash: String, modelHash: String)
    /// The store needs a migration to this model and automatic migration is off; `plan` says what it would do.
    case migrationRequired(path: String, plan: String)
    /// The inferred migration cannot run (a failing check or a change that cannot be inferred), per `plan`.
    case migrationRefused(path: String, plan: String)
    /// Another process migrated the store to another model while it was open here: nothing was written.
    case storeModelChanged(path: String)
    /// A value does not fit the attribute.
    case validation(ValidationFailure)
    /// Several validation failures at once (a save reports all of them).
    case multipleValidation([ValidationFailure])
    /// An unknown entity, attribute or relationship name was used.
    case unknownKey(entity: String, key: String)
    case unknownEntity(String)
    /// The object does not exist in the store (deleted, or never saved).
    case objectNotFound(ObjectID)
    /// A delete was refused by a `deny` rule.
    case deleteDenied(entity: String, relationship: String, count: Int)
    /// An object of another context was passed in.
    case wrongContext(detail: String)
    /// Optimistic locking or uniqueness conflicts found by a save.
    case conflicts([MergeConflict])
    /// The store is busy (locked by another connection) after all retries.
    case busy(path: String, detail: String)
    /// A predicate or sort does not fit the model, or failed to compile or evaluate.
    case query(QueryError)
    /// A predicate or sort string has a syntax error.
    case parse(ParseError)
    /// A model was refused.
    case model(ModelError)
    /// A results controller was misused.
    case results(ResultsControllerError)
    /// A regular expression was refused, or gave up on its input.
    case regex(RegexError)
    /// A file was not written (it exists, is protected, or the write failed); nothing was changed.
    case fileWrite(FileWriteError)
    /// History after a token was pruned: the caller must refetch everything.
    case historyExpired(HistoryExpired)
    /// A value does not convert to an attribute's type.
    case valueType(ValueTypeMismatch)
    /// Text is not a date in the one accepted form.
    case date(DateParseError)
    /// Text is not a value for an attribute.
    case valueParse(ValueParseError)
    /// Any other misuse, described.
    case invalidOperation(String)
    /// PostgreSQL refused an operation or a connection; `sqlState` says why.
    case postgresql(PostgreSQLFailure)

    public var description: String {
        switch self {
        case .sqlite(let f): return f.description
        case .notADatabase(let path, let detail): return "\(path): not a database (\(detail))"
        case .readOnly(let path): return "\(path): the store is read-only (no write permission on the file or its folder); open it read-only to browse"
        case .fileNotFound(let path): return "\(path): no such file"
        case .fileExists(let path): return "\(path): already exists; refusing to overwrite it (remove it or choose another path)"
        case .unusableFile(let path, let reason): return "\(path): \(reason)"
        case .notAStore(let path): return "\(path): a SQLite database, but not a Vellum store (no _vellum_metadata table)"
        case .coreDataStore(let path):
            return "\(path): a Core Data store (it has Z_METADATA and Z_PRIMARYKEY tables); Vellum does not open Core Data's SQLite layout yet. The file was not changed."
        case .malformedCoreData(let what, let offset, let reason):
            return "\(what): cannot be decoded\(offset.map { " at byte \($0)" } ?? ""): \(reason)"
        case .coreDataModelMismatch(let path, let model, let entities):
            return "\(path): the model \(model) does not match the store; entities whose version hashes differ: \(entities.joined(separator: ", "))"
        case .modelMismatch(let path, let s, let m):
            return "\(path): the store was created with a different model (store hash \(s.prefix(12)), model hash \(m.prefix(12)))"
        case .migrationRequired(let path, let plan):
            return "\(path): the store holds an older model and needs a migration (automatic migration is off); nothing was changed.\n\(plan)"
        case .migrationRefused(let path, let plan):
            return "\(path): the store cannot be migrated to this model by inference; nothing was changed.\n\(plan)"
        case .storeModelChanged(let path):
            return "\(path): another process migrated the store to another model while it was open here; this write was refused. Open the store again with the new model"
        case .validation(let v): return v.description
        case .multipleValidation(let vs): return vs.map(\.description).joined(separator: "\n")
        case .unknownKey(let e, let k): return "\(e) has no property named '\(k)'"
        case .unknownEntity(let e): return "the model has no entity named '\(e)'"
        case .objectNotFound(let id): return "object \(id.uriString) does not exist in the store"
        case .deleteDenied(let e, let r, let n):
            return "cannot delete \(e): relationship '\(r)' still has \(n) object\(n == 1 ? "" : "s") and its delete rule is deny"
        case .wrongContext(let d): return "object used in the wrong context: \(d)"
        case .conflicts(let cs):
            if cs.count == 1 { return cs[0].description }
            return "\(cs.count) save conflicts:\n" + cs.map { "  " + $0.description }.joined(separator: "\n")
        case .busy(let path, let detail): return "\(path): database is busy (\(detail))"
        case .query(let e): return e.description
        case .parse(let e): return e.description
        case .model(let e): return e.description
        case .results(let e): return e.description
        case .regex(let e): return e.description
        case .fileWrite(let e): return e.description
        case .historyExpired(let e): return e.description
        case .valueType(let e): return e.description
        case .date(let e): return e.description
        case .valueParse(let e): return e.description
        case .invalidOperation(let m): return m
        case .postgresql(let f): return f.description
        }
    }

    /// True when a PostgreSQL server could not be reached (`PostgreSQLFailure.isServerUnavailable`).
    public var isServerUnavailable: Bool {
        if case .postgresql(let f) = self { return f.isServerUnavailable }
        return false
    }

    /// True for errors worth retrying later (busy/locked).
    public var isBusy: Bool {
        switch self {
        case .busy: return true
        case .sqlite(let f): return f.kind == .busy
        default: return false
        }
    }
}

/// A failed SQLite call: extended result code, SQLite's message and the SQL.
public struct SQLiteFailure: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case constraint, busy, notADatabase, corrupt, readOnly, io, cantOpen, full, other
    }
    public var code: Int32
    public var extendedCode: Int32
    public var message: String
    public var sql: String?
    /// `errno` of the failed system call, when SQLite reported one (ENOSPC under an I/O error).
    public var systemErrno: Int32 = 0

    public var kind: Kind {
        // A full disk shows up as SQLITE_FULL, or as an I/O error whose errno says so.
        if code == SQLITE_IOERR && [ENOSPC, EDQUOT, EFBIG].contains(systemErrno) { return .full }
        switch code {
        case SQLITE_CONSTRAINT: return .constraint
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_NOTADB: return .notADatabase
        case SQLITE_CORRUPT: return .corrupt
        case SQLITE_READONLY: return .readOnly
        case SQLITE_IOERR: return .io
        case SQLITE_CANTOPEN: return .cantOpen
        case SQLITE_FULL: return .full
        default: return .other
        }
    }

    public var description: String {
        // The SQL stays in `sql` for debugging; users see the reason only.
        if code == SQLITE_INTERRUPT { return "the query was cancelled" }
        if kind == .full { return "disk full (no space left to write; SQLite error \(extendedCode): \(message))" }
        return "SQLite error \(extendedCode) (\(kind)): \(message)"
    }
}

/// One attribute or relationship value that failed validation.
public struct ValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {
    public var entity: String
    public var key: String
    public var reason: String
    public var objectURI: String?

    public init(entity: String, key: String, reason: String, objectURI: String? = nil) {
        self.entity = entity
        self.key = key
        self.reason = reason
        self.objectURI = objectURI
    }

    public var description: String { "\(entity).\(key): \(reason)" }
}
