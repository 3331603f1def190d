import Foundation

/// Custom work a migration runs inside its transaction, around the inferred schema
/// step: `before` sees the rows in the old model's shape (to read values the new
/// model drops), `after` in the new one's (to fill new attributes). A stage that
/// throws rolls the whole migration back.
public struct MigrationStage: Sendable {
    public var name: String
    public var before: (@Sendable (MigrationStageContext) throws -> Void)?
    public var after: (@Sendable (MigrationStageContext) throws -> Void)?

    public init(_ name: String, before: (@Sendable (MigrationStageContext) throws -> Void)? = nil,
                after: (@Sendable (MigrationStageContext) throws -> Void)? = nil) {
        self.name = name
        self.before = before
        self.after = after
    }
}

/// The rows of the store during a migration stage, read and written on the
/// migration's connection (so inside its transaction), in the shape of `model`.
public final class MigrationStageContext {
    public let model: ManagedObjectModel
    let layout: any StoreLayout
    let connection: Connection
    let path: String
    private var borrowed: PersistentStore?

    init(model: ManagedObjectModel, layout: any StoreLayout, connection: Connection, path: String) {
        self.model = model
        self.layout = layout
        self.connection = connection
        self.path = path
    }

    /// The store in `model`'s shape over the migration's connection, for contexts that
    /// work inside its transaction (`MigrationStage.withContext`); made on first use.
    func store() throws(StoreError) -> PersistentStore {
        if let borrowed { return borrowed }
        let uuid = try connection.scalarText("SELECT value FROM \(quoteIdentifier(PersistentStore.metadataTable)) WHERE key = 'uuid'")
        let store = PersistentStore.borrowing(connection, path: path, model: model, layout: layout, identifier: uuid ?? "")
        borrowed = store
        return store
    }

    /// Every row of exactly `entity` (not its subentities), by key: its stored attributes by name.
    public func rows(_ entity: String) throws(StoreError) -> [(key: Int64, values: [String: Value])] {
        let m = try mapping(entity)
        let stored = m.entity.attributes.indices.filter { m.attributeColumns[$0] != nil }
        let columns = [layout.primaryKeyColumn] + stored.map { m.attributeColumns[$0]! }
        let s = try connection.prepare("SELECT \(columns.map(quoteIdentifier).joined(separator: ", ")) FROM \(quoteIdentifier(m.table)) WHERE \(quoteIdentifier(layout.entityColumn)) = ? ORDER BY 1")
        try s.bind([.string(entity)])
        var out: [(Int64, [String: Value])] = []
        while try s.step() {
            var values: [String: Value] = [:]
            for (n, i) in stored.enumerated() { values[m.entity.attributes[i].name] = s.value(at: n + 1, as: m.entity.attributes[i].type) }
            out.append((s.int64(0), values))
        }
        return out
    }

    /// Sets attributes of one row; each value must fit its attribute's type.
    public func update(_ entity: String, key: Int64, _ values: [String: Value]) throws(StoreError) {
        let m = try mapping(entity)
        var sets: [String] = []
        var bound: [Value] = []
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let i = m.entity.attributeIndexByName[name], let column = m.attributeColumns[i] else { throw .unknownKey(entity: entity, key: name) }
            do { bound.append(try value.coerced(to: m.entity.attributes[i].type)) } catch {
                throw .invalidOperation("migration stage: \(entity).\(name): \(error)")
            }
            sets.append("\(quoteIdentifier(column)) = ?")
        }
        guard !sets.isEmpty else { return }
        try connection.run("UPDATE \(quoteIdentifier(m.table)) SET \(sets.joined(separator: ", ")) WHERE \(quoteIdentifier(layout.primaryKeyColumn)) = ? AND \(quoteIdentifier(layout.entityColumn)) = ?",
                           bound + [.integer(key), .string(entity)])
    }

    private func mapping(_ entity: String) throws(StoreError) -> EntityMapping {
        guard let m = layout.mapping(for: entity) else { throw .unknownEntity(entity) }
        return m
    }
}

extension MigrationStage {
    /// Runs `before` or `after`, naming the stage in any error.
    func run(_ body: (@Sendable (MigrationStageContext) throws -> Void)?, _ context: MigrationStageContext) throws(StoreError) {
        guard let body else { return }
        do { try body(context) } catch let error as StoreError {
            throw .invalidOperation("migration stage \(name): \(error.description); nothing was changed")
        } catch {
            throw .invalidOperation("migration stage \(name): \(ErrorText.describe(error)); nothing was changed")
        }
    }
}
