import Foundation

/// Core Data's entity numbers (`Z_ENT`): 1…n in a pre-order walk of the inheritance
/// forest, roots and siblings sorted by name. Computed from the model, they stay right
/// after an entity rename, when `Z_PRIMARYKEY.Z_NAME` may still hold the old name.
public enum CoreDataEntityNumbers {
    public static func numbers(_ model: ManagedObjectModel) -> [String: Int64] {
        var out: [String: Int64] = [:]
        func visit(_ name: String) {
            out[name] = Int64(out.count + 1)
            for child in (model.entity(named: name)?.subentityNames ?? []).sorted() { visit(child) }
        }
        for root in model.rootEntities.map(\.name).sorted() { visit(root) }
        return out
    }
}

extension CoreDataStoreFile {
    /// Objects per entity (instances of exactly that entity), read from each root's table.
    public func objectCounts(_ model: ManagedObjectModel) throws(StoreError) -> [String: Int] {
        let numbers = CoreDataEntityNumbers.numbers(model)
        var out: [String: Int] = [:]
        for root in model.rootEntities {
            let counts = try rowCounts(table: "Z" + root.name.uppercased())
            for name in root.hierarchyNames { out[name] = counts[numbers[name] ?? 0] ?? 0 }
        }
        return out
    }
}
