import Foundation

/// Core Data's SQL names for a model (pure; checked against every fixture's schema): one
/// table per root entity, `Z` + upper-cased name, shared by its sub-entities; a column
/// `Z` + upper-cased name per stored attribute and to-one relationship (a same-named
/// property of another entity in the hierarchy gets a numeric suffix: `ZTITLE1`); entity
/// numbers as `Z_ENT`; and the names of the indexes Core Data creates.
public struct CoreDataNaming: Sendable {
    public let entityNumbers: [String: Int64]
    /// Entity → its root's table.
    public let tables: [String: String]
    /// Entity → property → column, inherited properties included; transient properties
    /// and to-many relationships have none.
    public let columns: [String: [String: String]]
    private let model: ManagedObjectModel

    public init(model: ManagedObjectModel) {
        self.model = model
        entityNumbers = CoreDataEntityNumbers.numbers(model)
        var tables: [String: String] = [:], columns: [String: [String: String]] = [:]
        for root in model.rootEntities {
            let table = "Z" + root.name.uppercased()
            // Declaring entity and property → column, in entity-number order so the first
            // declaration keeps the plain name.
            var taken: Set<String> = [], declared: [String: [String: String]] = [:]
            for name in root.hierarchyNames {
                tables[name] = table
                guard let decl = model.entity(named: name)?.declaration else { continue }
                let stored = decl.leafAttributes.filter { !$0.isTransient }.map(\.name)
                    + decl.relationships.filter { !$0.isTransient && !$0.isToMany }.map(\.name)
                for property in stored {
                    // A composite's element (`magnitude.richter`): `ZMAGNITUDE_RICHTER`, a guess
                    // no store at hand confirms (docs/core-data-stores.md).
                    let base = "Z" + property.uppercased().replacingOccurrences(of: ".", with: "_")
                    var column = base, n = 0
                    while taken.contains(column) { n += 1; column = base + String(n) }
                    taken.insert(column)
                    declared[name, default: [:]][property] = column
                }
            }
            for name in root.hierarchyNames {
                let lineage = (model.entity(named: name)?.ancestorNames ?? []) + [name]
                columns[name] = lineage.reduce(into: [:]) { all, e in all.merge(declared[e] ?? [:]) { a, _ in a } }
            }
        }
        self.tables = tables
        self.columns = columns
    }

    public func column(entity: String, property: String) -> String? { columns[entity]?[property] }

    /// The indexes Core Data creates on a root entity's table: `Z_ENT` (when the table holds
    /// sub-entities), each indexed attribute and to-one column (`<TABLE>_<COLUMN>_INDEX`),
    /// compound indexes (`<TABLE>_<COLUMNS…>`), fetch indexes (`Z_<Entity>_<name>`) and unique indexes (`Z_<Entity>_UNIQUE_<names…>`).
    public func indexNames(root: String) -> Set<String> {
        guard let entity = model.entity(named: root), let table = tables[root] else { return [] }
        var names: Set<String> = []
        if entity.hierarchyNames.count > 1 { names.insert("\(table)_Z_ENT_INDEX") }
        for name in entity.hierarchyNames {
            guard let decl = model.entity(named: name)?.declaration, let cols = columns[name] else { continue }
            let indexed = decl.leafAttributes.filter { $0.isIndexed }.map(\.name) + decl.relationships.filter { !$0.isToMany }.map(\.name)
            for property in indexed { if let column = cols[property] { names.insert("\(table)_\(column)_INDEX") } }
            for index in decl.indexes {
                // Compound indexes are named by their columns, fetch indexes by entity and name.
                names.insert(index.name.hasPrefix("compound_")
                             ? ([table] + index.attributes.map { cols[$0] ?? $0 }).joined(separator: "_")
                             : "Z_\(name)_\(index.name)")
            }
            for c in decl.uniquenessConstraints { names.insert("Z_\(name)_UNIQUE_" + c.joined(separator: "_")) }
        }
        return names
    }
}
