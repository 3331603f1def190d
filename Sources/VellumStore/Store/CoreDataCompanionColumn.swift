import Foundation

/// A to-one relationship's companion column in a Core Data store: when the destination entity
/// has sub-entities, `Z<n>_<NAME>` beside the foreign key `Z<NAME>` holds the destination row's
/// `Z_ENT` (facts document). Found in the file's schema, never assumed; written from the
/// destination row itself after a save's rows are in place.
struct CoreDataCompanionColumn: Sendable, Hashable {
    var column: String
    var foreignKey: String
    var destinationTable: String

    /// The companion columns of `entity`'s to-one relationships that the table has.
    static func columns(of entity: Entity, storage: [RelationshipStorage], table: ForeignSchema.Table, model: ManagedObjectModel,
                        tables: [String: String]) -> [CoreDataCompanionColumn] {
        zip(entity.relationships, storage).compactMap { r, storage in
            guard case .foreignKey(let fk) = storage, let destination = model.entity(named: r.destination),
                  !destination.subentityNames.isEmpty, let destinationTable = tables[destination.name] else { return nil }
            let suffix = "_" + fk.dropFirst()
            let companion = table.columns.first { c in
                c.name.hasPrefix("Z") && c.name.hasSuffix(suffix) && c.name.count > suffix.count + 1
                    && c.name.dropFirst().dropLast(suffix.count).allSatisfy(\.isNumber)
            }
            return companion.map { CoreDataCompanionColumn(column: $0.name, foreignKey: fk, destinationTable: destinationTable) }
        }
    }

    /// Sets the companion of the row `?1` of `table` from the row its foreign key points at.
    func updateSQL(table: String, dialect: any SQLDialect) -> String {
        let t = dialect.quote(table)
        return "UPDATE \(t) SET \(dialect.quote(column)) = (SELECT Z_ENT FROM \(dialect.quote(destinationTable)) WHERE Z_PK = \(t).\(dialect.quote(foreignKey))) WHERE Z_PK = ?1"
    }
}
