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
        // Join tables and indexes are named `<Entity>_<property>` (and `<Entity>__entity`):
        // an entity named like one is refused. Checked from the entity names that hold a `_`
        // (few), each split at its underscores, rather than by naming every property's table.
        var propertiesByFoldedEntity: [String: [String: String]] = [:]
        for name in entities.keys.sorted() {
            let entity = entities[name]!
            var propertyByFolded: [String: String] = [:]
            propertyByFolded.reserveCapacity(entity.attributes.count + entity.relationships.count)
            for property in entity.attributes.lazy.map(\.name) + entity.relationships.lazy.map(\.name) {
                if property.hasPrefix("_") {
                    throw .invalidName(entity: name, property: property, detail: "property names must not start with '_'")
                }
                if let other = propertyByFolded.updateValue(property, forKey: property.lowercased()) {
                    throw .invalidName(entity: name, property: property, detail: "clashes with \(name).\(other) (SQL names ignore case)")
                }
            }
            propertiesByFoldedEntity[name.lowercased()] = propertyByFolded
        }
        for name in entities.keys.sorted() {
            let folded = name.lowercased()
            for underscore in folded.indices where folded[underscore] == "_" {
                let prefix = String(folded[..<underscore])
                guard let owner = entityByFolded[prefix] else { continue }
                let clash: String? = folded == "\(prefix)__entity" ? owner
                    : propertiesByFoldedEntity[prefix]?[String(folded[folded.index(after: underscore)...])].map { "\(owner).\($0)" }
                guard let clash else { continue }
                throw .invalidName(entity: name, property: nil, detail: "named like the join table or index of \(clash); choose another name")
            }
        }
    }
}
