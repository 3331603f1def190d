import Foundation
import VellumStore
import VellumTerminal

/// Opening stores and turning command-line text into store values, shared by
/// `query`, `insert`, `update`, `delete`, `watch` and `_stress-writer`.
enum StoreSupport {
    /// Fails with a readable runtime error when `path` does not exist.
    static func requireFile(_ path: String) throws {
        guard !PersistentStore.isServerLocation(path) else { return }  // postgresql://…: the server says
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.runtime("\(path): no such file or directory")
        }
    }

    /// An existing store (its own model) or any other SQLite database (its inferred
    /// model, or the mapping at `mappingPath`, `--model`), for reading: read-only when
    /// `readOnly` (`--read-only`) or when the user cannot write it (said on stderr).
    static func openStore(_ path: String, readOnly: Bool = false, console: Console? = nil, given: StoreArguments = StoreArguments()) throws -> PersistentStore {
        try requireFile(path)
        let store: PersistentStore
        do {
            store = try PersistentStore.open(location: path, model: mapping(given.mappingPath),
                                             options: readingOptions(path, readOnly: readOnly, console: console, given: given))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
        if store.readsSnapshot, let console { console.err(ReadOnlyNotice.snapshot(path)) }
        return store
    }

    /// A container over an existing store (its own model): for writing through the
    /// write queue, or, with a `console`, for reading as `openStore` decides.
    static func openContainer(_ path: String, author: String, readOnly: Bool = false, console: Console? = nil,
                              given: StoreArguments = StoreArguments()) throws -> PersistentContainer {
        try requireFile(path)
        let c: PersistentContainer
        do {
            c = try PersistentContainer(store: PersistentStore.open(location: path, model: mapping(given.mappingPath),
                                                                    options: readingOptions(path, readOnly: readOnly, console: console, given: given)))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError.runtime(VellumCLI.describe(error))
        }
        c.automaticallyMergesChanges = false
        c.writeQueueAuthor = author
        if c.store.readsSnapshot, let console { console.err(ReadOnlyNotice.snapshot(path)) }
        return c
    }

    /// The model at `path` (`--model`: a mapping onto another program's database), or nil.
    static func mapping(_ path: String?) throws -> ManagedObjectModel? {
        guard let path else { return nil }
        return try ModelSource.loadModel(path: path)
    }

    /// Options for an existing store. Reading commands pass their console: they
    /// open read-only when asked, or when the file or its folder is not writable.
    static func readingOptions(_ path: String, readOnly: Bool, console: Console?, given: StoreArguments) -> StoreOptions {
        var options = StoreOptions(createIfMissing: false)
        given.apply(to: &options)
        if readOnly {
            options.readOnly = true
        } else if let console, !PersistentStore.isServerLocation(path), !PersistentStore.isWritable(path) {
            options.readOnly = true
            console.err(ReadOnlyNotice.automatic(path))
        }
        return options
    }

    static func entity(_ name: String, in model: ManagedObjectModel) throws -> Entity {
        guard let e = model.entity(named: name) else {
            let known = model.entityNames.sorted().joined(separator: ", ")
            throw CLIError.runtime("unknown entity '\(name)' (the store has: \(known))")
        }
        return e
    }

    /// Parses `--where`; a syntax error becomes a usage error (exit 2) showing the
    /// input with a caret under the position; unknown keys name the entity and key.
    static func predicate(_ text: String?, entity: Entity, model: ManagedObjectModel, command: String) throws -> VellumStore.QueryPredicate? {
        guard let text else { return nil }
        let predicate: VellumStore.QueryPredicate
        do { predicate = try VellumStore.QueryPredicate(format: text) } catch {
            throw CLIError.usage("invalid --where predicate:\n" + (error.parseError?.caretDiagnostic(input: text, width: DisplayWidth.of) ?? error.description), command: command)
        }
        do { try predicate.validate(entity: entity, model: model) } catch {
            throw CLIError.runtime("invalid --where predicate for \(entity.name): \(error.queryError?.rendered(width: DisplayWidth.of) ?? error.description)")
        }
        return predicate
    }

    /// What one `key=value` argument sets.
    enum Assignment: Sendable {
        case attribute(String, Value)
        /// A to-one relationship set to the object with that ID, or nil.
        case toOne(String, ObjectID?)
    }

    /// Parses `key=value` arguments by the entity's attribute types (the same
    /// `ValueParser` the browser uses); errors name the key and the reason. A value
    /// stored otherwise than typed (a decimal's digits) is said on `console`'s stderr.
    static func assignments(_ arguments: [String], entity: Entity, store: PersistentStore, command: String,
                            console: Console? = nil) throws -> [Assignment] {
        var result: [Assignment] = []
        var seen: Set<String> = []
        for argument in arguments {
            guard let eq = argument.firstIndex(of: "="), eq != argument.startIndex else {
                throw CLIError.usage("expected key=value, got '\(argument)'", command: command)
            }
            let key = String(argument[..<eq])
            let text = String(argument[argument.index(after: eq)...])
            guard seen.insert(key).inserted else { throw CLIError.runtime("\(key): given more than once") }
            if let attribute = entity.attribute(named: key) {
                if attribute.isTransient { throw CLIError.runtime("\(entity.name).\(key): transient attributes are not stored") }
                switch ValueParser.parse(text, for: attribute) {
                case .success(let v):
                    if let note = ValueParser.storedFormNote(text, v) { console?.err("vellum: note: \(entity.name).\(key): \(note)\n") }
                    result.append(.attribute(key, v))
                case .failure(let e): throw CLIError.runtime("\(entity.name).\(key): \(e.reason)")
                }
            } else if let r = entity.relationship(named: key) {
                if r.isToMany { throw CLIError.runtime("\(entity.name).\(key): to-many relationships cannot be set here (set the to-one side)") }
                if text.isEmpty { result.append(.toOne(key, nil)); continue }
                guard let id = store.objectID(uri: text), !id.isTemporary else {
                    throw CLIError.runtime("\(entity.name).\(key): '\(text)' is not an object ID of this store (expected \(store.objectID(entity: r.destination, primaryKey: 0).uriString.dropLast())<N>)")
                }
                guard let target = store.model.entity(named: id.entityName), target.isKind(of: r.destination) else {
                    throw CLIError.runtime("\(entity.name).\(key): \(text) is a \(id.entityName), expected a \(r.destination)")
                }
                result.append(.toOne(key, id))
            } else {
                throw CLIError.runtime("unknown key '\(key)': \(entity.name) has no attribute or relationship named '\(key)'")
            }
        }
        return result
    }

    /// Applies parsed assignments to an object in a write-queue context.
    static func apply(_ assignments: [Assignment], to object: ManagedObject, in context: ManagedObjectContext) throws {
        for a in assignments {
            switch a {
            case .attribute(let key, let value):
                try object.setValue(value, forKey: key)
            case .toOne(let key, let id):
                guard let id else { try object.setToOne(key, nil); continue }
                let target: ManagedObject
                do { target = try context.existingObject(with: id) } catch {
                    throw CLIError.runtime("\(object.entity.name).\(key): object \(id.uriString) does not exist")
                }
                try object.setToOne(key, target)
            }
        }
    }

    /// A readable message for a failed write: validation and conflicts name the key.
    static func writeFailure(_ error: any Error) -> CLIError {
        if let e = error as? CLIError { return e }
        return .runtime("nothing written: " + VellumCLI.describe(error))
    }
}
