import Foundation
@testable import VellumStore

/// A store file created with one model and filled, to migrate in a test.
struct MigrationTestStore {
    let dir = TempDir()
    let url: URL
    var path: String { url.path }

    /// Creates the store with `model` and runs `fill` on a context, then saves and closes it.
    init(_ model: ManagedObjectModel, name: String = "store.sqlite", fill: (ManagedObjectContext) throws -> Void = { _ in }) throws {
        url = dir.file(name)
        let store = try PersistentStore(url: url, model: model)
        let context = try ManagedObjectContext(store: store)
        try fill(context)
        _ = try context.save()
    }

    /// Every row of `entity` (exactly, not subentities) under `model`, by primary key:
    /// attribute values by name, and to-one relationships as the destination's key.
    func rows(_ entity: String, model: ManagedObjectModel) throws -> [Int64: [String: Value]] {
        let store = try PersistentStore(url: url, model: model)
        let context = try ManagedObjectContext(store: store)
        var out: [Int64: [String: Value]] = [:]
        let e = model.entity(named: entity)!
        for o in try context.fetch(entity) where o.entity.name == entity {
            var values: [String: Value] = [:]
            for a in e.attributes where !a.isTransient { values[a.name] = try o.value(forKey: a.name) }
            for r in e.relationships where !r.isToMany {
                values[r.name] = try o.toOne(r.name).map { .integer(Self.key($0.objectID)) } ?? .null
            }
            for r in e.relationships where r.isToMany {
                values[r.name] = .string(try o.toMany(r.name).map { String(Self.key($0.objectID)) }.joined(separator: ","))
            }
            out[Self.key(o.objectID)] = values
        }
        return out
    }

    static func key(_ id: ObjectID) -> Int64 {
        if case .permanent(let k) = id.key { return k }
        return -1
    }

    func bytes() throws -> Data { try Data(contentsOf: url) }

    @discardableResult
    func migrate(to model: ManagedObjectModel, backup: Bool = false) throws -> MigrationResult {
        try StoreMigrator.migrate(storeAt: url, to: model, options: MigrationOptions(backup: backup))
    }
}

/// The plan's refusal text when `body` is refused, nil when it runs.
func refusal(_ body: () throws -> Void) -> String? {
    do { try body() } catch StoreError.migrationRefused(_, let plan) { return plan } catch { return "unexpected: \(error)" }
    return nil
}
