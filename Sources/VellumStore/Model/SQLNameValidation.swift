/// Names that would clash in the store's SQL are refused when the model is made,
/// naming both sides, rather than failing later with a raw SQLite error. SQL
/// names ignore case; tables and indexes share one namespace; `_vellum_` and
/// `sqlite_` belong to Vellum and SQLite.
extension ManagedObjectModel {
    static let reservedPrefixes = ["_vellum_", "sqlite_"]

    static func validateSQLNames(_ entities: [String: Entity]) throws(ModelError) {
        var entityByFolded: [String: String] = [:]
        for name in entities.keys.sorted() {
            if let prefix = reservedPrefixes.first(where: { name.lowercased().hasPrefix($0) }) {
                throw .invalidName(entity: name, property: nil, detail: "names starting with \(prefix) are reserved")
            }
            if let other = entityByFolded.updateValue(name, forKey: name.lowercased()) {
                throw .invalidName(entity: name, property: nil, detail: "clashes with entity \(other) (SQL names ignore case)")
            }
        }
        // Join tables and indexes are named `<Entity>_<property>` (and `<Entity>__entity`).
        var generated: [String: String] = [:]
        for name in entities.keys.sorted() {
            let entity = entities[name]!
            var propertyByFolded: [String: String] = [:]
            let properties = entity.attributes.map(\.name) + entity.relationships.map(\.name)
            for property in properties {
                if property.hasPrefix("_") {
                    throw .invalidName(entity: name, property: property, detail: "property names must not start with '_'")
                }
                if let other = propertyByFolded.updateValue(property, forKey: property.lowercased()) {
                    throw .invalidName(entity: name, property: property, detail: "clashes with \(name).\(other) (SQL names ignore case)")
                }
                generated["\(name)_\(property)".lowercased()] = "\(name).\(property)"
            }
            generated["\(name)__entity".lowercased()] = "\(name)"
        }
        for name in entities.keys.sorted() {
            if let owner = generated[name.lowercased()] {
                throw .invalidName(entity: name, property: nil, detail: "named like the join table or index of \(owner); choose another name")
            }
        }
    }
}
